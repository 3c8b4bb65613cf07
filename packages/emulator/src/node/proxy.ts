/**
 * The node interface: `POST {node}/{chain}/{apiKey}` with a JSON-RPC request or batch. Each call
 * is checked on its own (envelope, served method), the served ones go to anvil together, and each
 * answer is put the contract's way (see ./methods.ts). Every chain slug is served by the same chain.
 */
import { EVM_CHAINS, issuesOf } from '@blockwire/core';
import { rpcChainSegment } from '@blockwire/core/internal';
import {
  LIMIT_EXCEEDED,
  MAX_BATCH_SIZE,
  methods,
  paramsToInput,
  type RpcMethod,
} from '@blockwire/rpc/operations';
import type { HandlerResult } from '../handlers/result.js';
import { openRpcDocument } from '../openrpc.js';
import { answerAsContract, paramsForAnvil, type RpcErrorObject, SERVED_METHODS } from './methods.js';

/** The service caps JSON-RPC batches at this many calls (the limit the SDK batches to). */
export { MAX_BATCH_SIZE };
/** EIP-1474 "limit exceeded": what a batch over the cap gets (and what the SDK retries). */
export const BATCH_TOO_LARGE_CODE = LIMIT_EXCEEDED;

/** The contract's typed methods by JSON-RPC name: their calls are checked before anvil sees them. */
const TYPED_METHODS: ReadonlyMap<string, RpcMethod> = new Map(
  methods.map((method) => [method.method, method]),
);

/** Chain slugs the node interface accepts: every chain of the EVM data interface, plus mantle. */
export const NODE_CHAINS: readonly string[] = [...new Set([...EVM_CHAINS.map(rpcChainSegment), 'mantle'])];

export const rpcError = (code: number, message: string, id: unknown = null) => ({
  jsonrpc: '2.0',
  id,
  error: { code, message },
});

type Reply = { jsonrpc: '2.0'; id: unknown } & ({ result: unknown } | { error: RpcErrorObject });

/** One member of the request: answered here, or sent on to anvil. */
type Call =
  | { kind: 'answered'; reply: Reply | undefined }
  | { kind: 'forward'; id: unknown; notification: boolean; method: string; params: unknown };

export interface ProxyOptions {
  /** Decides, per call that would reach the node, whether it is refused with `-32005` instead. */
  limitCall?: () => boolean;
}

export async function proxyJsonRpc(
  anvilUrl: string,
  chain: string,
  rawBody: string,
  options: ProxyOptions = {},
): Promise<HandlerResult> {
  if (!NODE_CHAINS.includes(chain)) {
    return {
      status: 404,
      body: rpcError(
        -32601,
        `unknown chain "${chain}"; the node interface serves: ${NODE_CHAINS.join(', ')}`,
      ),
    };
  }
  let body: unknown;
  try {
    body = JSON.parse(rawBody);
  } catch {
    return { status: 400, body: rpcError(-32700, 'Parse error: the body is not valid JSON') };
  }
  const batch = Array.isArray(body);
  if (Array.isArray(body)) {
    if (body.length === 0) return { status: 400, body: rpcError(-32600, 'Invalid Request: empty batch') };
    if (body.length > MAX_BATCH_SIZE) {
      return {
        status: 200,
        body: rpcError(BATCH_TOO_LARGE_CODE, `batch size exceeds ${MAX_BATCH_SIZE} (got ${body.length})`),
      };
    }
  } else if (typeof body !== 'object' || body === null) {
    return { status: 400, body: rpcError(-32600, 'Invalid Request: expected a JSON-RPC object or batch') };
  }

  const calls = (batch ? (body as unknown[]) : [body]).map(classify).map((call) => limited(call, options));
  const forwarded = calls.filter((call) => call.kind === 'forward');
  const answers = forwarded.length > 0 ? await askAnvil(anvilUrl, forwarded) : [];
  const replies = calls
    .map((call) => {
      if (call.kind === 'answered') return call.reply;
      const answer = answers[forwarded.indexOf(call)]!;
      return call.notification ? undefined : ({ jsonrpc: '2.0', id: call.id, ...answer } as Reply);
    })
    .filter((reply) => reply !== undefined);
  // JSON-RPC 2.0: a notification gets no reply, and neither does a batch of only notifications.
  if (replies.length === 0) return { status: 204, body: undefined };
  return { status: 200, body: batch ? replies : replies[0] };
}

function classify(member: unknown): Call {
  if (typeof member !== 'object' || member === null || Array.isArray(member)) {
    return { kind: 'answered', reply: invalid(null, 'expected a JSON-RPC request object') };
  }
  const { jsonrpc, id, method, params } = member as Record<string, unknown>;
  const notification = !('id' in member);
  const replyId = notification ? null : id;
  if (!notification && !isValidId(id)) {
    return { kind: 'answered', reply: invalid(null, 'id must be a string, a number or null') };
  }
  if (jsonrpc !== '2.0') return { kind: 'answered', reply: invalid(replyId, 'jsonrpc must be "2.0"') };
  if (typeof method !== 'string')
    return { kind: 'answered', reply: invalid(replyId, 'method must be a string') };
  if (params !== undefined && (typeof params !== 'object' || params === null)) {
    return { kind: 'answered', reply: invalid(replyId, 'params must be an array or an object') };
  }
  // OpenRPC's service discovery: the document of the typed methods, answered here.
  if (method === 'rpc.discover') {
    const reply = { jsonrpc: '2.0', id: replyId, result: openRpcDocument() } as Reply;
    return { kind: 'answered', reply: notification ? undefined : reply };
  }
  if (!SERVED_METHODS.has(method)) {
    const refused = rpcError(
      -32601,
      `Method not found: ${method} is not served by the node interface (its standard eth_, net_ and web3_ read methods and eth_sendRawTransaction are); mining and resets are the control API's`,
      replyId,
    ) as Reply;
    return { kind: 'answered', reply: notification ? undefined : refused };
  }
  const badParams = paramsProblem(method, params);
  if (badParams) {
    const refused = rpcError(-32602, `Invalid params: ${badParams}`, replyId) as Reply;
    return { kind: 'answered', reply: notification ? undefined : refused };
  }
  return { kind: 'forward', id, notification, method, params };
}

/** What is wrong with a typed method's params, by argument name, as the SDK's own check says it. */
function paramsProblem(name: string, params: unknown): string | undefined {
  const method = TYPED_METHODS.get(name);
  if (!method) return undefined;
  if (!Array.isArray(params ?? [])) return `${name} takes its arguments as an array`;
  let input: Record<string, unknown>;
  try {
    input = paramsToInput(method, (params ?? []) as unknown[]);
  } catch (error) {
    return (error as Error).message;
  }
  const checked = method.params.safeParse(input);
  if (checked.success) return undefined;
  return issuesOf(checked.error)
    .map((issue) => `${issue.path || 'params'} (${argumentPosition(method, issue.path)}) ${issue.message}`)
    .join('; ');
}

function argumentPosition(method: RpcMethod, path: string): string {
  const index = method.args.indexOf(path.split('.')[0]!);
  return index === -1 ? method.method : `argument ${index} of ${method.method}`;
}

/** A call the node would run, refused instead with `-32005` when the fault injection says so. */
function limited(call: Call, options: ProxyOptions): Call {
  if (call.kind !== 'forward' || !options.limitCall?.()) return call;
  const reply = rpcError(LIMIT_EXCEEDED, 'limit exceeded (injected fault)', call.id) as Reply;
  return { kind: 'answered', reply: call.notification ? undefined : reply };
}

const isValidId = (id: unknown) => typeof id === 'string' || typeof id === 'number' || id === null;

const invalid = (id: unknown, why: string) => rpcError(-32600, `Invalid Request: ${why}`, id) as Reply;

/**
 * Sends the forwarded calls to anvil as one batch under ids of our own (the caller's ids may
 * repeat, or be null), notifications included so that they run, and returns each answer in order.
 */
async function askAnvil(
  anvilUrl: string,
  calls: Extract<Call, { kind: 'forward' }>[],
): Promise<({ result: unknown } | { error: RpcErrorObject })[]> {
  const requests = calls.map((call, index) => ({
    jsonrpc: '2.0',
    id: index,
    method: call.method,
    ...(call.params === undefined ? {} : { params: paramsForAnvil(call.method, call.params) }),
  }));
  let replies: unknown;
  try {
    const response = await fetch(anvilUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(requests),
    });
    replies = JSON.parse(await response.text());
  } catch (error) {
    return calls.map(() => ({
      error: {
        code: -32603,
        message: `Internal error: the node did not answer (${(error as Error).message})`,
      },
    }));
  }
  const byId = new Map<unknown, { result?: unknown; error?: RpcErrorObject }>();
  if (Array.isArray(replies)) for (const reply of replies) byId.set(reply?.id, reply);
  return calls.map((call, index) => {
    const reply = byId.get(index);
    if (!reply)
      return { error: { code: -32603, message: 'Internal error: the node gave no answer to this call' } };
    return answerAsContract(call.method, reply);
  });
}
