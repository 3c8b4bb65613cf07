import {
  assertClient,
  type CallOptions,
  type Client,
  chunk,
  decideRetry,
  JsonRpcError,
  MAX_TIMER_MS,
  maskKeyInValidationError,
  parseRetryAfter,
  REDACTED,
  ResponseValidationError,
  redactValue,
  resolveCallOptions,
  ValidationError,
  type ValidationIssue,
  unknownKeyIssues,
  validateResponse,
} from '@blockwire/core/operations';
import type { Hex } from './inputs.js';
import {
  encodeParams,
  paramsToInput,
  type RpcMethod,
  type RpcMethodInput,
  type RpcMethodResult,
} from './method.js';
import {
  getBlockByHashMethod,
  getBlockByNumberMethod,
  getBlockReceiptsMethod,
  getProofMethod,
  getTransactionByHashMethod,
  getTransactionReceiptMethod,
  getUncleByBlockHashAndIndexMethod,
  getUncleByBlockNumberAndIndexMethod,
  type methods,
} from './methods/index.js';
import type { Block, Transaction } from './schemas.js';

/** The service accepts at most this many calls in one batch. */
export const MAX_BATCH_SIZE = 20;

/** JSON-RPC error code of "limit exceeded" (EIP-1474): retried with backoff like an HTTP 429. */
export const LIMIT_EXCEEDED = -32005;

export interface BatchOptions {
  /** Most calls per HTTP request, 1 to 20. Default 20. */
  maxSize?: number;
  /** How long to gather calls before sending, in milliseconds. Default 0: the calls of the same tick. */
  waitMs?: number;
}

export interface RpcClientOptions {
  /** The chain's path segment on the node interface, e.g. `avalanche`, `arbitrum`, `ronin`, `mantle`. */
  chain: string;
  /** Send the calls made together as one JSON-RPC batch (default), or `false` for one HTTP request per call. */
  batch?: BatchOptions | false;
}

/** The EIP-1193 request shape. */
export interface RequestArguments {
  method: string;
  params?: readonly unknown[] | Record<string, unknown>;
}

/** A method's arguments in `args` order, each typed as its params field accepts it; trailing optional ones optional. */
type Positional<Names extends readonly string[], Input> = Names extends readonly [
  infer Name extends string,
  ...infer Rest extends readonly string[],
]
  ? Name extends keyof Input
    ? undefined extends Input[Name]
      ? [argument?: Input[Name], ...Positional<Rest, Input>]
      : [argument: Input[Name], ...Positional<Rest, Input>]
    : []
  : [];

type Signature<M extends RpcMethod, Input, Result> = (
  ...args: [...Positional<M['args'], Input>, options?: CallOptions]
) => Promise<Result>;

type WithFullTransactions<Input, Flag> = Omit<Input, 'fullTransactions'> &
  (undefined extends Flag ? { fullTransactions?: Flag } : { fullTransactions: Flag });
type BlockWith<Result, T extends Hex | Transaction> = Result extends { transactions: unknown[] }
  ? Block<T>
  : Result;

/**
 * A typed method as a positional function, derived from its definition: its arguments in `args`
 * order, typed as its params accept them, then call options; it resolves to its result schema's
 * output. A method that takes `fullTransactions` also says which block it returns (the client
 * checks the node kept to it): `Block<Transaction>` when true, `Block<Hex>` when false or left out.
 */
export type RpcMethodFunction<M extends RpcMethod> = 'fullTransactions' extends M['args'][number]
  ? Signature<M, WithFullTransactions<RpcMethodInput<M>, true>, BlockWith<RpcMethodResult<M>, Transaction>> &
      Signature<
        M,
        WithFullTransactions<RpcMethodInput<M>, false | undefined>,
        BlockWith<RpcMethodResult<M>, Hex>
      > &
      Signature<M, RpcMethodInput<M>, RpcMethodResult<M>>
  : Signature<M, RpcMethodInput<M>, RpcMethodResult<M>>;

type TypedMethod = (typeof methods)[number];

/** A client of one chain's node: every typed method of `methods` by its id, plus `request` and `call`. */
export type RpcClient = {
  readonly chain: string;
  /** Any JSON-RPC method (EIP-1193 shape): pass this client to viem's `custom()` or ethers' `BrowserProvider`. */
  request(args: RequestArguments, options?: CallOptions): Promise<unknown>;
  /** Calls a typed method descriptor with named arguments. */
  call<M extends RpcMethod>(
    method: M,
    input: RpcMethodInput<M>,
    options?: CallOptions,
  ): Promise<RpcMethodResult<M>>;
} & { readonly [M in TypedMethod as M['id']]: RpcMethodFunction<M> };

/** One JSON-RPC call waiting for its answer. */
interface PendingCall {
  id: number;
  method: string;
  params: unknown;
  /** The SDK method (or JSON-RPC method) that asked, for errors and hooks. */
  operation: string;
  /** Attempts made after a "limit exceeded" answer, the first one included. */
  attempts: number;
  signal: AbortSignal | undefined;
  settle(outcome: { result: unknown } | { error: unknown }): void;
  settled: boolean;
}

// Calls whose repetition could change state: an HTTP failure after sending them is not retried.
const UNSAFE_TO_REPEAT = /^(eth_send|eth_submit|personal_|anvil_|hardhat_|evm_|miner_|admin_)/;
// Reads whose answer depends on who asked before: two polls of a filter get different changes.
const ANSWER_DEPENDS_ON_CALLER = /Filter|subscribe/;

/** Whether two identical calls in flight at once may share one request and its answer. */
function mergeable(method: string): boolean {
  return !UNSAFE_TO_REPEAT.test(method) && !ANSWER_DEPENDS_ON_CALLER.test(method);
}

/** One call in flight that identical calls join instead of sending their own. */
interface SharedCall {
  result: Promise<unknown>;
  /** Callers that can give up (have a signal) and have not. */
  waiting: number;
  /** A caller without a signal keeps the call going whatever the others do. */
  pinned: boolean;
  abort: AbortController;
}

/**
 * The waits a JSON-RPC client needs: the batch window and the pause before a rate-limited call
 * goes again. `createRpcClient` uses the runtime's timers; a host that forbids them (an n8n node)
 * gives its own.
 */
export interface RpcTimers {
  /** Runs `run` after `ms`; the function returned cancels it. */
  after(ms: number, run: () => void): () => void;
  /** Waits at least `ms` (never less: it may be a Retry-After). */
  sleep(ms: number): Promise<void>;
}

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
  let nextId = 1;
  let queue: PendingCall[] = [];
  let cancelWait: (() => void) | undefined;
  const inFlight = new Map<string, SharedCall>();

  function enqueue(call: PendingCall): void {
    if (!batch) {
      void send([call]);
      return;
    }
    queue.push(call);
    if (queue.length >= batch.maxSize) flush();
    else cancelWait ??= timers.after(batch.waitMs, flush);
  }

  function flush(): void {
    cancelWait?.();
    cancelWait = undefined;
    const calls = queue.filter((call) => !call.settled);
    queue = [];
    for (const group of chunk(calls, batch?.maxSize ?? 1)) void send(group);
  }

  async function send(calls: PendingCall[]): Promise<void> {
    const envelope = (call: PendingCall) => ({
      jsonrpc: '2.0',
      id: call.id,
      method: call.method,
      params: call.params,
    });
    const single = calls.length === 1 ? calls[0] : undefined;
    // A batch is shared: one caller giving up must not cancel the others' request, but once all
    // of them have, nobody waits for the answer any more.
    const batchAbort = single || !calls.some((call) => call.signal) ? undefined : new AbortController();
    const onCallerAbort = () => {
      if (calls.every((call) => call.settled))
        batchAbort?.abort(new Error('every caller of the batch gave up'));
    };
    if (batchAbort) for (const call of calls) call.signal?.addEventListener('abort', onCallerAbort);
    let response: Awaited<ReturnType<Client['request']>>;
    const idempotent = calls.every((call) => !UNSAFE_TO_REPEAT.test(call.method));
    // An answer that cannot be read leaves a state-changing call's outcome unknown.
    const unreadable = { ...where, outcomeUnknown: !idempotent };
    try {
      response = await client.request({
        api: 'node',
        method: 'POST',
        path,
        // A lone call goes as a plain object: some nodes treat a batch of one differently.
        body: single ? envelope(single) : calls.map(envelope),
        idempotent,
        signal: single ? single.signal : batchAbort?.signal,
        operation: single ? single.operation : `JSON-RPC batch of ${calls.length}`,
      });
    } catch (error) {
      for (const call of calls) call.settle({ error });
      return;
    } finally {
      for (const call of calls) call.signal?.removeEventListener('abort', onCallerAbort);
    }
    if (!Array.isArray(response.data) && !isRecord(response.data)) {
      const error = new ResponseValidationError(
        [{ path: '', message: `the body is not a JSON-RPC answer (${describeBody(response.data)})` }],
        { ...unreadable, operation: single?.operation, attempts: response.attempts },
      );
      for (const call of calls) call.settle({ error });
      return;
    }
    const replies = Array.isArray(response.data) ? response.data : [response.data];
    const byId = new Map<string, unknown[]>();
    // An error with id null answers the calls the server could not tell apart (JSON-RPC 2.0 §5):
    // a batch rejected as a whole, or calls it could not parse inside the array.
    let unattributedError: unknown;
    for (const reply of replies) {
      if (!isRecord(reply)) continue;
      if (typeof reply.id === 'number' || typeof reply.id === 'string') {
        const key = String(reply.id);
        const same = byId.get(key);
        if (same) same.push(reply);
        else byId.set(key, [reply]);
      } else if (reply.id == null && isRecord(reply.error)) {
        unattributedError ??= reply;
      }
    }
    const retryAfterMs = parseRetryAfter(response.headers['retry-after']);
    for (const call of calls) {
      const matches = byId.get(String(call.id)) ?? [];
      if (matches.length > 1) {
        call.settle({
          error: new ResponseValidationError(
            [
              {
                path: '',
                message: `the response has ${matches.length} answers for call id ${call.id} (${call.method}); which one is meant cannot be told`,
              },
            ],
            { ...unreadable, operation: call.operation, attempts: response.attempts },
          ),
        });
        continue;
      }
      answer(call, matches[0] ?? unattributedError, response.attempts, retryAfterMs);
    }
  }

  function answer(call: PendingCall, reply: unknown, httpAttempts: number, retryAfterMs: number | undefined) {
    if (call.settled) return;
    // The usual answer: a result, and nothing else to work out.
    if (isRecord(reply) && 'result' in reply && !isRecord(reply.error)) {
      call.settle({ result: reply.result });
      return;
    }
    const details = { ...where, operation: call.operation };
    const unreadable = { ...details, outcomeUnknown: UNSAFE_TO_REPEAT.test(call.method) };
    if (!isRecord(reply)) {
      call.settle({
        error: new ResponseValidationError(
          [{ path: '', message: `the response has no answer for call id ${call.id} (${call.method})` }],
          { ...unreadable, attempts: httpAttempts },
        ),
      });
      return;
    }
    if (isRecord(reply.error)) {
      const rpcError = toJsonRpcError(reply.error, call, details);
      if (rpcError.code === LIMIT_EXCEEDED) {
        const decision = decideRetry({
          attempt: call.attempts,
          outcome: { kind: 'status', status: 429, retryAfterMs },
          idempotent: true,
          options: client.retry,
        });
        if (decision.retry) {
          void retryLater(call, decision.delayMs);
          return;
        }
      }
      call.settle({ error: rpcError });
      return;
    }
    if (!('result' in reply)) {
      call.settle({
        error: new ResponseValidationError(
          [
            {
              path: '',
              message: `the answer to call id ${call.id} (${call.method}) has neither result nor error`,
            },
          ],
          { ...unreadable, attempts: httpAttempts },
        ),
      });
      return;
    }
    call.settle({ result: reply.result });
  }

  function toJsonRpcError(error: Record<string, unknown>, call: PendingCall, details: object): JsonRpcError {
    // -32603 (internal error) stands in for a missing or malformed code.
    const code = typeof error.code === 'number' ? error.code : -32603;
    const message = typeof error.message === 'string' ? client.redact(error.message) : 'no message';
    const data = redactValue(error.data, client.redact);
    return new JsonRpcError(
      { code, message, ...(data === undefined ? {} : { data }) },
      { ...details, attempts: call.attempts, rpcMethod: call.method },
    );
  }

  async function retryLater(call: PendingCall, delayMs: number): Promise<void> {
    // Never early: the wait may be a Retry-After (a caller who gives up settles the call meanwhile).
    await timers.sleep(delayMs);
    if (call.settled) return;
    call.attempts += 1;
    call.id = nextId++;
    enqueue(call);
  }

  /**
   * Sends a call, or joins an identical one already in flight (same method, same params): viem
   * does the same, so N callers asking for one block cost one call, not N. Each caller can still
   * give up on its own; the shared call is cancelled only when every caller has.
   */
  function execute(method: string, params: unknown, operation: string, options: CallOptions) {
    const { signal } = options;
    signal?.throwIfAborted();
    const key = mergeable(method) ? mergeKey(method, params) : undefined;
    if (key === undefined) return enqueueCall(method, params, operation, signal);
    let shared = inFlight.get(key);
    if (!shared) {
      const abort = new AbortController();
      const created: SharedCall = {
        result: enqueueCall(method, params, operation, abort.signal),
        waiting: 0,
        pinned: false,
        abort,
      };
      const forget = () => {
        if (inFlight.get(key) === created) inFlight.delete(key);
      };
      created.result.then(forget, forget);
      inFlight.set(key, created);
      shared = created;
    }
    if (!signal) {
      shared.pinned = true;
      return shared.result;
    }
    return joinUntilAborted(shared, signal);
  }

  function joinUntilAborted(shared: SharedCall, signal: AbortSignal): Promise<unknown> {
    shared.waiting += 1;
    return new Promise<unknown>((resolve, reject) => {
      const onAbort = () => {
        shared.waiting -= 1;
        if (shared.waiting === 0 && !shared.pinned) shared.abort.abort(signal.reason);
        reject(signal.reason);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      shared.result.then(
        (result) => {
          signal.removeEventListener('abort', onAbort);
          resolve(result);
        },
        (error) => {
          signal.removeEventListener('abort', onAbort);
          reject(error);
        },
      );
    });
  }

  function enqueueCall(method: string, params: unknown, operation: string, signal: AbortSignal | undefined) {
    signal?.throwIfAborted();
    return new Promise<unknown>((resolve, reject) => {
      const onAbort = () => call.settle({ error: signal?.reason });
      const call: PendingCall = {
        id: nextId++,
        method,
        params,
        operation,
        attempts: 1,
        signal,
        settled: false,
        settle(outcome) {
          if (call.settled) return;
          call.settled = true;
          signal?.removeEventListener('abort', onAbort);
          if ('error' in outcome) reject(outcome.error);
          else resolve(outcome.result);
        },
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      enqueue(call);
    });
  }

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
    return execute(args.method, params, args.method, callOptions);
  }

  async function call<M extends RpcMethod>(
    method: M,
    input: RpcMethodInput<M>,
    options?: CallOptions,
  ): Promise<RpcMethodResult<M>> {
    if (!isRecord(method) || typeof method.method !== 'string' || !isRecord(method.params)) {
      throw new ValidationError(
        [{ path: 'method', message: 'must be a method definition, e.g. getBlockByHashMethod' }],
        { subject: 'arguments of call' },
      );
    }
    const callOptions = resolveCallOptions(options, method.id);
    let params: unknown[];
    try {
      params = encodeParams(method, input);
    } catch (error) {
      throw maskKeyInValidationError(error, client.redact);
    }
    const result = await execute(method.method, params, method.id, callOptions);
    const details = () => ({ ...where, operation: method.id });
    const validated = validateResponse(method.result, result, details) as RpcMethodResult<M>;
    const mismatch = checkTransactions(method, params, validated);
    if (mismatch) throw new ResponseValidationError([mismatch], details());
    return validated;
  }

  /** A method called with positional arguments, as the `RpcClient` type derived from it says. */
  function positional<M extends RpcMethod>(method: M): RpcMethodFunction<M> {
    const invoke = async (...args: unknown[]): Promise<RpcMethodResult<M>> => {
      if (args.length > method.args.length + 1) {
        throw new ValidationError(
          [
            {
              path: '',
              message: `takes at most ${method.args.length + 1} arguments (${method.args.join(', ')}, options), got ${args.length}`,
            },
          ],
          { subject: `arguments of ${method.id}`, operation: method.id },
        );
      }
      const input = paramsToInput(method, args.slice(0, method.args.length)) as RpcMethodInput<M>;
      return call(method, input, args[method.args.length] as CallOptions | undefined);
    };
    // The one claim the types cannot check: which block a `fullTransactions` flag returns. `call`
    // checks it at run time (checkTransactions), so the narrower overloads hold.
    return invoke as RpcMethodFunction<M>;
  }

  return Object.freeze({
    chain,
    request,
    call,
    getBlockByHash: positional(getBlockByHashMethod),
    getBlockByNumber: positional(getBlockByNumberMethod),
    getUncleByBlockHashAndIndex: positional(getUncleByBlockHashAndIndexMethod),
    getUncleByBlockNumberAndIndex: positional(getUncleByBlockNumberAndIndexMethod),
    getBlockReceipts: positional(getBlockReceiptsMethod),
    getTransactionByHash: positional(getTransactionByHashMethod),
    getTransactionReceipt: positional(getTransactionReceiptMethod),
    getProof: positional(getProofMethod),
  } satisfies RpcClient);
}

/**
 * The node must answer `fullTransactions: true` with transaction objects and `false` with hashes:
 * the types promise one or the other, and a mix would break code that relies on them.
 */
function checkTransactions(
  method: RpcMethod,
  params: unknown[],
  result: unknown,
): ValidationIssue | undefined {
  const index = method.args.indexOf('fullTransactions');
  if (index === -1 || !isRecord(result) || !Array.isArray(result.transactions)) return undefined;
  const full = params[index] === true;
  const wrong = result.transactions.findIndex((tx) => (typeof tx === 'string') === full);
  if (wrong === -1) return undefined;
  return {
    path: `transactions.${wrong}`,
    message: full ? 'must be a transaction object (fullTransactions was true)' : 'must be a transaction hash',
  };
}

const OPTION_NAMES = Object.keys({ chain: true, batch: true } satisfies Record<keyof RpcClientOptions, true>);
const BATCH_OPTION_NAMES = Object.keys({ maxSize: true, waitMs: true } satisfies Record<
  keyof BatchOptions,
  true
>);

function resolveOptions(options: RpcClientOptions): {
  chain: string;
  batch: Required<BatchOptions> | undefined;
} {
  const subject = 'RPC client options';
  if (!isRecord(options)) {
    throw new ValidationError(
      [
        {
          path: '',
          message: 'createRpcClient(client, options) needs options such as { chain: "avalanche" }',
        },
      ],
      { subject },
    );
  }
  const issues: ValidationIssue[] = [];
  issues.push(...unknownKeyIssues(options, { kind: 'option', names: OPTION_NAMES }));
  const { chain } = options;
  if (typeof chain !== 'string' || !CHAIN_SEGMENT.test(chain)) {
    issues.push({
      path: 'chain',
      message: `must be a chain path segment of lowercase letters, digits and dashes, e.g. "avalanche"${chainHint(chain)}`,
    });
  }
  const batch = resolveBatch(options.batch, issues);
  if (issues.length > 0) throw new ValidationError(issues, { subject });
  return { chain: chain as string, batch };
}

/** One path segment, nothing a URL could resolve or a proxy decode: no dots, slashes or escapes. */
const CHAIN_SEGMENT = /^[a-z0-9-]+$/;

/** `Avalanche` or `arbitrum nova` mean a valid segment: say which. */
function chainHint(chain: unknown): string {
  if (typeof chain !== 'string' || chain.length > 64) return '';
  const meant = chain
    .trim()
    .toLowerCase()
    .replace(/[\s_]+/g, '-');
  return meant !== chain && CHAIN_SEGMENT.test(meant) ? ` (did you mean "${meant}"?)` : '';
}

function resolveBatch(batch: unknown, issues: ValidationIssue[]): Required<BatchOptions> | undefined {
  if (batch === false) return undefined;
  if (batch !== undefined && !isRecord(batch)) {
    issues.push({ path: 'batch', message: 'must be an object such as { maxSize: 20, waitMs: 0 }, or false' });
    return undefined;
  }
  issues.push(
    ...unknownKeyIssues(batch ?? {}, {
      kind: 'batch option',
      names: BATCH_OPTION_NAMES,
      pathPrefix: 'batch.',
    }),
  );
  const { maxSize = MAX_BATCH_SIZE, waitMs = 0 } = (batch ?? {}) as BatchOptions;
  if (!Number.isInteger(maxSize) || maxSize < 1 || maxSize > MAX_BATCH_SIZE) {
    issues.push({
      path: 'batch.maxSize',
      message: `must be an integer from 1 to ${MAX_BATCH_SIZE} (the service's batch limit)`,
    });
  }
  // Node's timers fire at once for a delay above 2^31-1 ms.
  if (typeof waitMs !== 'number' || !(waitMs >= 0 && waitMs <= MAX_TIMER_MS)) {
    issues.push({
      path: 'batch.waitMs',
      message: `must be a number of milliseconds from 0 to ${MAX_TIMER_MS}`,
    });
  }
  return { maxSize, waitMs };
}

/** The identity of a call for merging, or undefined when its params cannot be told apart (e.g. a bigint). */
function mergeKey(method: string, params: unknown): string | undefined {
  try {
    return `${method} ${JSON.stringify(params)}`;
  } catch {
    return undefined;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describeBody(body: unknown): string {
  if (body === undefined) return 'empty';
  if (typeof body === 'string') return 'not JSON';
  return `a JSON ${body === null ? 'null' : typeof body}`;
}
