/**
 * Reads people do with a node, built on `ethCall` and `getLogs` with human-readable ABI fragments
 * (./abi): a contract call decoded, an ERC-20 balance with its decimals and symbol, event logs
 * decoded. No ethers or web3 inside; the calls of one read go out in the same tick, so the client
 * sends them as one JSON-RPC batch.
 */
import { type CallOptions, ResponseValidationError, ValidationError } from '@blockwire/core/operations';
import { AbiCodingError, decodeParameters, decodeWord, encodeParameters } from './abi/codec.js';
import {
  type AbiEvent,
  type AbiParameter,
  parseEvent,
  parseFunction,
  selectorOf,
  topicOf,
} from './abi/fragment.js';
import { ContractRevertError, decodeRevert, NotErc20Error, revertDataOf } from './abi/revert.js';
import { formatUnits } from './convert.js';
import { addressInput, type BlockTag, type Hex } from './inputs.js';
import type { RpcMethodInput } from './method.js';
import type { ethCallMethod } from './methods/ethCall.js';
import type { getLogsMethod } from './methods/getLogs.js';
import type { RpcMethodFunction } from './positional.js';
import type { Log } from './schemas.js';

/** What the reads need of a client: its raw `eth_call` and `eth_getLogs`. */
type Reads = {
  ethCall: RpcMethodFunction<typeof ethCallMethod>;
  getLogs: RpcMethodFunction<typeof getLogsMethod>;
};

export interface ReadContractParameters {
  /** The contract called (EIP-55 checksummed, or all one case). */
  address: string;
  /** One function fragment: `"function balanceOf(address owner) view returns (uint256)"`. */
  abi: string;
  /** The function's name, checked against the fragment's when given. */
  functionName?: string;
  /** The arguments in order: bigints (or numbers, decimal strings) for integers, 0x hex for bytes. */
  args?: readonly unknown[];
  blockTag?: BlockTag;
}

export interface TokenBalance {
  token: Hex;
  owner: Hex;
  /** The balance in the token's smallest unit. */
  raw: bigint;
  decimals: number;
  symbol: string;
  /** `raw` in whole tokens, every digit kept: `formatUnits(raw, decimals)`. */
  formatted: string;
}

/** A log that matched the event fragment: its arguments by name (by position when unnamed). */
export type DecodedLog = Log & { decoded: true; eventName: string; args: Record<string, unknown> };
/** A log the fragment does not describe (another event, other indexing), kept as the node sent it. */
export type UndecodedLog = Log & { decoded: false; reason: string };

function checkedAddress(value: unknown, field: string, subject: string): Hex {
  const parsed = addressInput.safeParse(value);
  if (parsed.success) return parsed.data as Hex;
  throw new ValidationError(
    parsed.error.issues.map((issue) => ({ path: field, message: issue.message })),
    { subject },
  );
}

/** Calls a view function and decodes its result: one output is the value itself, several an array. */
export async function readContract(
  rpc: Reads,
  parameters: ReadContractParameters,
  options?: CallOptions,
): Promise<unknown> {
  const subject = 'arguments of readContract';
  if (typeof parameters !== 'object' || parameters === null) {
    throw new ValidationError([{ path: '', message: 'must be { address, abi, args?, blockTag? }' }], {
      subject,
    });
  }
  const address = checkedAddress(parameters.address, 'address', subject);
  const fn = parseFunction(parameters.abi, 'abi', subject);
  if (parameters.functionName !== undefined && parameters.functionName !== fn.name) {
    throw new ValidationError(
      [
        {
          path: 'functionName',
          message: `is "${parameters.functionName}", but the abi fragment is ${fn.name}`,
        },
      ],
      { subject },
    );
  }
  const args = parameters.args ?? [];
  if (!Array.isArray(args)) {
    throw new ValidationError([{ path: 'args', message: 'must be an array of the arguments, in order' }], {
      subject,
    });
  }
  let data: string;
  try {
    data = selectorOf(fn) + encodeParameters(fn.inputs, args);
  } catch (error) {
    if (error instanceof AbiCodingError) {
      throw new ValidationError([{ path: error.path, message: error.message.slice(error.path.length + 2) }], {
        subject,
      });
    }
    throw error;
  }
  let result: string;
  try {
    result = await rpc.ethCall({ to: address, data: data as Hex }, parameters.blockTag, options);
  } catch (error) {
    const revert = revertDataOf(error);
    if (revert === undefined) throw error;
    throw new ContractRevertError(error as never, address, fn.name, decodeRevert(revert));
  }
  if (fn.outputs.length === 0) return undefined;
  let values: unknown[];
  try {
    values = decodeParameters(fn.outputs, result);
  } catch (error) {
    const message =
      result === '0x'
        ? `is empty: ${address} has no ${fn.name} function returning (${fn.outputs.map((o) => o.type).join(', ')}), or no code`
        : `does not decode as (${fn.outputs.map((o) => o.type).join(', ')}): ${(error as Error).message}`;
    throw new ResponseValidationError([{ path: 'result', message }], { operation: 'readContract' });
  }
  return fn.outputs.length === 1 ? values[0] : values;
}

const ERC20 = {
  balanceOf: 'function balanceOf(address owner) view returns (uint256)',
  decimals: 'function decimals() view returns (uint8)',
  symbol: 'function symbol() view returns (string)',
  symbolBytes32: 'function symbol() view returns (bytes32)',
};

/** Reads `name` of an ERC-20; a revert or an empty answer means the contract is not one. */
async function erc20Read<T>(read: Promise<unknown>, token: Hex, name: string): Promise<T> {
  try {
    return (await read) as T;
  } catch (error) {
    if (error instanceof ContractRevertError || error instanceof ResponseValidationError) {
      throw new NotErc20Error(token, name, error);
    }
    throw error;
  }
}

/** An ERC-20 balance with the token's decimals and symbol: three calls, sent as one batch. */
export async function getTokenBalance(
  rpc: Reads,
  parameters: { token: string; owner: string; blockTag?: BlockTag },
  options?: CallOptions,
): Promise<TokenBalance> {
  const subject = 'arguments of getTokenBalance';
  if (typeof parameters !== 'object' || parameters === null) {
    throw new ValidationError([{ path: '', message: 'must be { token, owner, blockTag? }' }], { subject });
  }
  const token = checkedAddress(parameters.token, 'token', subject);
  const owner = checkedAddress(parameters.owner, 'owner', subject);
  const { blockTag } = parameters;
  const call = (abi: string, args: unknown[] = []) =>
    readContract(rpc, { address: token, abi, args, blockTag }, options);
  const [raw, decimals, symbol] = await Promise.all([
    erc20Read<bigint>(call(ERC20.balanceOf, [owner]), token, 'balanceOf'),
    erc20Read<bigint>(call(ERC20.decimals), token, 'decimals'),
    // A few old tokens (MKR, SAI) answer symbol() as bytes32.
    erc20Read<string>(
      call(ERC20.symbol).catch((error) =>
        error instanceof ResponseValidationError
          ? call(ERC20.symbolBytes32).then((hex) => bytes32Text(hex as string))
          : Promise.reject(error),
      ),
      token,
      'symbol',
    ),
  ]);
  return {
    token,
    owner,
    raw,
    decimals: Number(decimals),
    symbol,
    formatted: formatUnits(raw, Number(decimals)),
  };
}

function bytes32Text(hex: string): string {
  const bytes = Uint8Array.from(hex.slice(2).match(/../g) ?? [], (pair) => Number.parseInt(pair, 16));
  return new TextDecoder().decode(bytes.subarray(0, bytes.indexOf(0) === -1 ? 32 : bytes.indexOf(0)));
}

type LogFilter = RpcMethodInput<typeof getLogsMethod>['filter'];

/**
 * `getLogs` decoded with an event fragment: the filter asks for the event's first topic (unless it
 * gives topics), and each log is decoded, or kept raw with `decoded: false` when the fragment does
 * not describe it (another event with the same signature but other indexed fields, bad data).
 */
export async function getDecodedLogs(
  rpc: Reads,
  filter: LogFilter & { event: string },
  options?: CallOptions,
): Promise<(DecodedLog | UndecodedLog)[]> {
  if (typeof filter !== 'object' || filter === null) {
    throw new ValidationError([{ path: 'filter', message: 'must be a log filter with an event fragment' }], {
      subject: 'arguments of getLogs',
    });
  }
  const { event: fragment, ...rest } = filter;
  const event = parseEvent(fragment, 'filter.event', 'arguments of getLogs');
  const topic = topicOf(event);
  const logs = await rpc.getLogs({ ...rest, topics: rest.topics ?? [topic as Hex] }, options);
  return logs.map((log) => decodeLog(event, topic, log));
}

/** Decodes one log with an event fragment; `decoded: false` and the reason when it does not fit. */
export function decodeLog(event: AbiEvent, topic: string, log: Log): DecodedLog | UndecodedLog {
  const topics = (log.topics ?? []) as string[];
  const indexed = event.inputs.filter((input) => input.indexed);
  const unindexed = event.inputs.filter((input) => !input.indexed);
  const miss = (reason: string): UndecodedLog => ({ ...log, decoded: false, reason });
  if (topics[0]?.toLowerCase() !== topic) return miss(`topic 0 is not ${event.name}'s ${topic}`);
  if (topics.length !== indexed.length + 1) {
    return miss(`has ${topics.length - 1} indexed topic(s); the fragment indexes ${indexed.length}`);
  }
  let data: unknown[];
  try {
    data = decodeParameters(unindexed, (log.data as string | undefined) ?? '0x');
  } catch (error) {
    return miss(`data does not decode as the fragment's unindexed fields: ${(error as Error).message}`);
  }
  const args: Record<string, unknown> = {};
  let t = 1;
  let d = 0;
  event.inputs.forEach((input: AbiParameter & { indexed?: boolean }, i) => {
    const key = input.name || String(i);
    if (!input.indexed) args[key] = data[d++];
    // An indexed string, bytes, array or tuple is stored as its keccak256 hash: kept as that topic.
    else args[key] = isWordType(input.type) ? decodeWord(input, topics[t++]!.slice(2)) : topics[t++];
  });
  return { ...log, decoded: true, eventName: event.name, args };
}

const isWordType = (type: string) => /^(u?int\d*|address|bool|bytes\d+)$/.test(type);

/** The reads above as members of an `RpcClient`; its `getLogs` decodes when the filter has an `event`. */
export interface ContractReads {
  /** Calls a view function given as one human-readable fragment and decodes its result. */
  readContract(parameters: ReadContractParameters, options?: CallOptions): Promise<unknown>;
  /** An ERC-20 balance: raw, decimals, symbol and the whole-token amount, in one batch. */
  getTokenBalance(
    parameters: { token: string; owner: string; blockTag?: BlockTag },
    options?: CallOptions,
  ): Promise<TokenBalance>;
  /** Event logs decoded with `filter.event`; logs the fragment does not describe stay raw (`decoded: false`). */
  getLogs(
    filter: LogFilter & { event: string },
    options?: CallOptions,
  ): Promise<(DecodedLog | UndecodedLog)[]>;
}

export function contractReadsOf(rpc: Reads): ContractReads {
  return {
    readContract: (parameters, options) => readContract(rpc, parameters, options),
    getTokenBalance: (parameters, options) => getTokenBalance(rpc, parameters, options),
    getLogs: ((filter: LogFilter & { event?: string }, ...rest: [CallOptions?]) =>
      typeof filter === 'object' && filter !== null && 'event' in filter
        ? getDecodedLogs(rpc, filter as LogFilter & { event: string }, rest[0])
        : rpc.getLogs(filter, ...rest)) as ContractReads['getLogs'],
  };
}
