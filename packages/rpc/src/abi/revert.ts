/**
 * What a reverted `eth_call` says: nodes answer JSON-RPC error 3 ("execution reverted") with the
 * revert data in `error.data`. The two standard shapes are decoded (Error(string) from `require`
 * and `revert("...")`, Panic(uint256) from failed asserts, overflow, division by zero), anything
 * else (a custom error) is kept as hex.
 */
import { BlockwireError, JsonRpcError } from '@blockwire/core/operations';
import { decodeParameters } from './codec.js';

const ERROR_SELECTOR = '0x08c379a0'; // Error(string)
const PANIC_SELECTOR = '0x4e487b71'; // Panic(uint256)

/** Solidity's panic codes (https://docs.soliditylang.org/en/latest/control-structures.html#panic-via-assert-and-error-via-require). */
const PANICS: Record<number, string> = {
  1: 'assertion failed',
  17: 'arithmetic overflow or underflow',
  18: 'division or modulo by zero',
  33: 'invalid enum value',
  34: 'invalid storage byte array',
  49: 'pop on an empty array',
  50: 'array index out of bounds',
  65: 'out of memory',
  81: 'call to an uninitialised function',
};

export interface RevertReason {
  /** The `Error(string)` reason or the panic's meaning; undefined for a custom error or none. */
  reason: string | undefined;
  /** The `Panic(uint256)` code, e.g. 0x12 for division by zero. */
  panicCode: number | undefined;
  /** The raw revert data (0x hex; `0x` when the contract gave none). */
  data: string;
}

export function decodeRevert(data: string): RevertReason {
  try {
    if (data.startsWith(ERROR_SELECTOR)) {
      const [reason] = decodeParameters([{ type: 'string' }], `0x${data.slice(10)}`);
      return { reason: reason as string, panicCode: undefined, data };
    }
    if (data.startsWith(PANIC_SELECTOR)) {
      const [code] = decodeParameters([{ type: 'uint256' }], `0x${data.slice(10)}`);
      const panicCode = Number(code);
      return { reason: `panic: ${PANICS[panicCode] ?? 'unknown panic code'}`, panicCode, data };
    }
  } catch {
    // Not the standard shape after all: kept as raw data below.
  }
  return { reason: undefined, panicCode: undefined, data };
}

/** A contract call reverted. A `JsonRpcError` (code 3, as the node sent it) with the reason decoded. */
export class ContractRevertError extends JsonRpcError {
  static override readonly kind: string = 'ContractRevertError';
  readonly contract: string;
  readonly functionName: string;
  readonly reason: string | undefined;
  readonly panicCode: number | undefined;
  constructor(cause: JsonRpcError, contract: string, functionName: string, revert: RevertReason) {
    super({ code: cause.code, message: cause.message, data: cause.data });
    const why =
      revert.reason !== undefined
        ? `: ${revert.reason}${revert.panicCode !== undefined ? ` (Panic(0x${revert.panicCode.toString(16)}))` : ''}`
        : revert.data === '0x'
          ? ' without a reason'
          : ` with custom error data ${revert.data.slice(0, 10)}…`;
    this.message = `${functionName} on ${contract} reverted${why}`;
    this.contract = contract;
    this.functionName = functionName;
    this.reason = revert.reason;
    this.panicCode = revert.panicCode;
  }
}

/** The contract at `contract` does not answer as an ERC-20: `missing` names the function. */
export class NotErc20Error extends BlockwireError {
  static override readonly kind: string = 'NotErc20Error';
  readonly contract: string;
  readonly missing: string;
  constructor(contract: string, missing: string, cause?: unknown) {
    super(`${contract} is not an ERC-20 token: its ${missing}() reverted or returned nothing`, {});
    this.contract = contract;
    this.missing = missing;
    if (cause !== undefined) Object.defineProperty(this, 'cause', { value: cause });
  }
}

/** The revert data of a JSON-RPC error, when it is a revert (code 3, or data that is hex). */
export function revertDataOf(error: unknown): string | undefined {
  if (!(error instanceof JsonRpcError)) return undefined;
  const data = error.data;
  if (typeof data === 'string' && /^0x[0-9a-fA-F]*$/.test(data)) return data;
  if (error.code === 3 || /revert/i.test(error.message)) return '0x';
  return undefined;
}
