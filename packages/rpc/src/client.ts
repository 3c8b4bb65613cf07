import {
  assertClient,
  type CallOptions,
  type Client,
  maskKeyInValidationError,
  REDACTED,
  ResponseValidationError,
  resolveCallOptions,
  ValidationError,
  validateResponse,
  validationOf,
} from '@blockwire/core/operations';
import { createCallQueue, type RpcTimers } from './call-queue.js';
import { type RpcClientOptions, resolveOptions } from './client-options.js';
import { type ContractReads, contractReadsOf } from './contract-reads.js';
import { withEip1193Code } from './eip1193-errors.js';
import { isRecord } from './is-record.js';
import { createCallMerger } from './merging.js';
import { encodeParams, type RpcMethod, type RpcMethodInput, type RpcMethodResult } from './method.js';
import { methods } from './methods/index.js';
import { checkTransactions, positional, type RpcMethodFunction } from './positional.js';

// The client's jobs live beside it: options checking (client-options), batching and sending
// (call-queue), reading replies (replies), merging identical calls (merging) and the positional
// method functions (positional). This file puts them together.
export { LIMIT_EXCEEDED, type RpcTimers } from './call-queue.js';
export { type BatchOptions, MAX_BATCH_SIZE, type RpcClientOptions } from './client-options.js';
export type { Eip1193ErrorFields } from './eip1193-errors.js';
export type { RpcMethodFunction } from './positional.js';

/** The EIP-1193 request shape. */
export interface RequestArguments {
  method: string;
  params?: readonly unknown[] | Record<string, unknown>;
}

type TypedMethod = (typeof methods)[number];

/**
 * A client of one chain's node: every typed method of `methods` by its id, plus `request` and
 * `call`, and the contract reads of ./contract-reads.ts (`readContract`, `getTokenBalance`,
 * `getLogs` with an `event` fragment).
 */
export type RpcClient = ContractReads & {
  readonly chain: string;
  /**
   * Any JSON-RPC method (EIP-1193 shape): pass this client to viem's `custom()` or ethers' `BrowserProvider`.
   * An HTTP failure rejects with the SDK's error carrying an EIP-1474 `code` and `data` (see
   * `Eip1193ErrorFields`), so viem's `LimitExceededRpcError` matches a 429; the node's own
   * JSON-RPC errors keep their code.
   */
  request(args: RequestArguments, options?: CallOptions): Promise<unknown>;
  /** Calls a typed method descriptor with named arguments. */
  call<M extends RpcMethod>(
    method: M,
    input: RpcMethodInput<M>,
    options?: CallOptions,
  ): Promise<RpcMethodResult<M>>;
} & { readonly [M in TypedMethod as M['id']]: RpcMethodFunction<M> };

/**
 * A JSON-RPC client of one chain's node on the given timers (see `RpcTimers`): the typed methods,
 * `request()` for any method, batching of calls made together. `createRpcClient` is this with the
 * runtime's timers.
 */
export function createRpcClientWith(client: Client, options: RpcClientOptions, timers: RpcTimers): RpcClient {
  assertClient(client, 'createRpcClient', 'options');
  let resolved: ReturnType<typeof resolveOptions>;
  try {
    resolved = resolveOptions(options);
  } catch (error) {
    throw maskKeyInValidationError(error, client.redact);
  }
  const { chain, batch } = resolved;
  const path = `/${encodeURIComponent(chain)}`;
  // Where errors say the call went: core appends the key as the last segment and masks it.
  const nodeUrl = (client.baseUrls as Partial<Client['baseUrls']> | undefined)?.node;
  const where = {
    method: 'POST',
    path: `${path}/${REDACTED}`,
    baseUrl: nodeUrl === undefined ? undefined : client.redact(nodeUrl),
  };
  // The answers are checked as the client chose (`fastValidation`).
  const paths = validationOf(client);
  const execute = createCallMerger(createCallQueue({ client, path, where, batch, timers }));

  async function request(args: RequestArguments, options?: CallOptions): Promise<unknown> {
    const callOptions = resolveCallOptions(options, 'request');
    if (!isRecord(args) || typeof args.method !== 'string' || args.method === '') {
      throw new ValidationError([{ path: 'method', message: 'must be a non-empty string' }], {
        subject: 'JSON-RPC request',
      });
    }
    const params = args.params ?? [];
    if (typeof params !== 'object' || params === null) {
      throw new ValidationError([{ path: 'params', message: 'must be an array or an object' }], {
        subject: 'JSON-RPC request',
        operation: args.method,
      });
    }
    return execute(args.method, params, args.method, callOptions).catch((error: unknown) => {
      throw withEip1193Code(error);
    });
  }

  function call<M extends RpcMethod>(
    method: M,
    input: RpcMethodInput<M>,
    options?: CallOptions,
  ): Promise<RpcMethodResult<M>> {
    if (!isRecord(method) || typeof method.method !== 'string' || !isRecord(method.params)) {
      return Promise.reject(
        new ValidationError(
          [{ path: 'method', message: 'must be a method definition, e.g. getBlockByHashMethod' }],
          { subject: 'arguments of call' },
        ),
      );
    }
    let params: unknown[];
    let callOptions: CallOptions;
    try {
      callOptions = resolveCallOptions(options, method.id);
      params = encodeParams(method, input);
    } catch (error) {
      return Promise.reject(maskKeyInValidationError(error, client.redact));
    }
    let sent: Promise<unknown>;
    try {
      sent = execute(method.method, params, method.id, callOptions);
    } catch (error) {
      // A signal aborted already: a rejection, as from any other call.
      return Promise.reject(error);
    }
    // A callback, not an async function: hundreds of calls wait at once in a batch of blocks, and
    // an async function's suspended state is larger than what this holds.
    return sent.then((result) => validatedResult(method, params, result));
  }

  function validatedResult<M extends RpcMethod>(method: M, params: unknown[], result: unknown) {
    const details = () => ({ ...where, operation: method.id });
    const validated = validateResponse(method.result, result, details, paths) as RpcMethodResult<M>;
    const mismatch = checkTransactions(method, params, validated);
    if (mismatch) throw new ResponseValidationError([mismatch], details());
    return validated;
  }

  // One function per method file, named by its id: the RpcClient type is derived from the same list.
  const typed = Object.fromEntries(methods.map((method) => [method.id, positional(method, call)]));
  const base = { ...typed, chain, request, call } as RpcClient;
  return Object.freeze({ ...base, ...contractReadsOf(base) }) as RpcClient;
}
