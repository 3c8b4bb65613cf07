/**
 * The control API (under the `control` URL; JSON, no API key, loopback only): what tests and
 * the demo use to drive the emulator — the request log, fault injection and the Bitcoin network.
 */
import * as z from 'zod/v4';
import {
  DELIVERY_FAULTS,
  deliveryFaultRequestSchema,
  FAULT_INTERFACES,
  type FaultInterface,
  type Faults,
  faultRequestSchema,
} from './faults.js';
import type { HandlerResult } from './handlers/result.js';
import type { Anvil } from './node/anvil.js';
import {
  type PriceScript,
  priceScriptRequestSchema,
  SCRIPT_CHAINS,
  SOLANA_CHAIN,
  scriptChainOf,
} from './price-script.js';
import type { StreamsService } from './streams/service.js';

export interface RequestLogEntry {
  /** ISO time the request arrived. */
  time: string;
  /** When the request arrived, in epoch milliseconds with sub-millisecond precision. */
  receivedAt: number;
  /**
   * When the answer began to be written (same clock as `receivedAt`); absent for a reset. A
   * client that honours a `Retry-After` of N s sends its next attempt N s after this, or later.
   */
  answeredAt?: number;
  /** The request's `X-Request-Id` header, when it had one (visible ASCII, at most 128 characters). */
  requestId?: string;
  /** The request's W3C `traceparent` header, when it had a well-formed one. */
  traceparent?: string;
  method: string;
  interface: FaultInterface | 'unknown';
  /** The path below the emulator's root, the API key masked. */
  path: string;
  /** 0 when the connection was reset on purpose. */
  status: number;
  durationMs: number;
  /** The operation the route serves (e.g. `getEvmTokenPrice`), when the request matched one. */
  operation?: string;
  /** The fault injected, if any: `status`, `reset` or `truncate`. */
  fault?: string;
}

export interface RequestLog {
  entries: RequestLogEntry[];
  add(entry: RequestLogEntry): void;
  clear(): void;
}

/** The log keeps the most recent requests only, so a long-running emulator does not grow. */
export const REQUEST_LOG_LIMIT = 10_000;

export function createRequestLog(): RequestLog {
  const entries: RequestLogEntry[] = [];
  return {
    entries,
    add(entry) {
      entries.push(entry);
      if (entries.length > REQUEST_LOG_LIMIT) entries.splice(0, entries.length - REQUEST_LOG_LIMIT);
    },
    clear() {
      entries.length = 0;
    },
  };
}

const bitcoinTransactionSchema = z.strictObject({
  to: z.string({ error: 'must be a Bitcoin address' }),
  amountBtc: z.union([z.number(), z.string()], { error: 'must be a decimal BTC amount (number or string)' }),
  from: z.string({ error: 'must be a Bitcoin address' }).optional(),
  /** Skip the mempool: the transaction is first seen in the next mined block. */
  mined: z.boolean({ error: 'must be true or false' }).optional(),
});
const mineSchema = z.strictObject({
  blocks: z.number({ error: 'must be an integer from 1 to 1000' }).default(1),
});
const evictSchema = z.strictObject({ txid: z.string({ error: 'must be a transaction id' }) });
const nodeMineSchema = z.strictObject({
  blocks: z
    .number({ error: 'must be an integer from 1 to 1000' })
    .int({ error: 'must be an integer from 1 to 1000' })
    .min(1, { error: 'must be an integer from 1 to 1000' })
    .max(1000, { error: 'must be an integer from 1 to 1000' })
    .default(1),
});
const autoSchema = z.strictObject({ intervalMs: z.number({ error: 'must be an integer >= 0 (0 stops)' }) });
const faultTargets = [...FAULT_INTERFACES, DELIVERY_FAULTS, 'all'] as const;
const faultTargetFilter = z
  .enum(faultTargets, { error: `must be one of ${faultTargets.join(', ')}` })
  .default('all');

export interface ControlContext {
  log: RequestLog;
  faults: Faults;
  streams: StreamsService;
  /** The EVM chain of the node interface; undefined when the emulator runs without anvil. */
  node: Pick<Anvil, 'mine' | 'reset'> | undefined;
  /** Token prices set through `PUT /prices/{chain}/{address}`. */
  prices: PriceScript;
  /** Called after the Bitcoin network changed, so the state file can follow. */
  changed(): void;
}

type ControlRoute = (
  context: ControlContext,
  body: unknown,
  query: URLSearchParams,
  /** The `{name}` segments of the route's path, decoded. */
  params: Record<string, string>,
) => Promise<HandlerResult>;

const routes: Record<string, ControlRoute> = {
  'GET /requests': async ({ log }, _body, query) => {
    const only = query.get('interface');
    return ok({ requests: only ? log.entries.filter((e) => e.interface === only) : log.entries });
  },
  'DELETE /requests': async ({ log }) => {
    log.clear();
    return ok({ cleared: true });
  },
  'GET /faults': async ({ faults }) => ok({ faults: faults.current() }),
  'POST /faults': async ({ faults }, body) =>
    (body as { interface?: unknown } | null)?.interface === DELIVERY_FAULTS
      ? withInput(deliveryFaultRequestSchema, body, ({ interface: _, ...config }) => {
          faults.setDeliveries(config);
          return ok({ faults: faults.current() });
        })
      : withInput(faultRequestSchema, body, ({ interface: target, ...config }) => {
          faults.set(target, config);
          return ok({ faults: faults.current() });
        }),
  'DELETE /faults': async ({ faults }, _body, query) =>
    withInput(
      z.object({ interface: faultTargetFilter }),
      { interface: query.get('interface') ?? undefined },
      (input) => {
        faults.clear(input.interface);
        return ok({ faults: faults.current() });
      },
    ),
  'GET /deliveries': async ({ streams }) => ok(streams.control.deliveries()),
  'DELETE /deliveries': async ({ streams }) => {
    streams.control.clearDeliveries();
    return ok({ cleared: true });
  },
  'POST /bitcoin/transactions': async (context, body) =>
    withInput(bitcoinTransactionSchema, body, async (input) => {
      const result = await context.streams.control.addTransaction(input);
      context.changed();
      return ok(result);
    }),
  'POST /bitcoin/mine': async (context, body) =>
    withInput(mineSchema, body ?? {}, async (input) => {
      const result = await context.streams.control.mine(input);
      context.changed();
      return ok(result);
    }),
  'POST /bitcoin/evict': async (context, body) =>
    withInput(evictSchema, body, async (input) => ok(await context.streams.control.evict(input))),
  'POST /bitcoin/auto': async (context, body) =>
    withInput(autoSchema, body, async (input) => ok(await context.streams.control.auto(input))),
  'POST /node/mine': async ({ node }, body) =>
    withNode(node, () =>
      withInput(nodeMineSchema, body, async ({ blocks }) => ok({ blockNumber: await node!.mine(blocks) })),
    ),
  'POST /node/reset': async ({ node }, body) =>
    withNode(node, () =>
      withInput(z.strictObject({}), body, async () => ok({ blockNumber: await node!.reset() })),
    ),
  'GET /prices': async ({ prices }) => ok({ prices: prices.list() }),
  'PUT /prices/{chain}/{address}': async ({ prices }, body, _query, params) => {
    const chain = scriptChainOf(params.chain!);
    if (!chain) {
      return badInput(
        `chain must be one of ${SCRIPT_CHAINS.join(', ')} or an EVM chain's hex id; got ${JSON.stringify(params.chain!.slice(0, 40))}`,
      );
    }
    const address = chain === SOLANA_CHAIN ? params.address! : params.address!.toLowerCase();
    return withInput(priceScriptRequestSchema, body, (input) => {
      const series = input.series?.map((step) => step.usd) ?? [input.usd!];
      return ok(prices.set(chain, address, series));
    });
  },
  'DELETE /prices': async ({ prices }) => {
    prices.clear();
    return ok({ cleared: true });
  },
};

/** Every control route, for the README and the 404 message. */
export const CONTROL_ROUTES = Object.keys(routes);

export async function handleControl(
  context: ControlContext,
  method: string,
  path: string,
  body: unknown,
  query: URLSearchParams,
): Promise<HandlerResult> {
  const found = findRoute(method, withoutTrailingSlashes(path) || '/');
  if (!found) {
    return {
      status: 404,
      body: { message: `No control route ${method} ${path}; routes: ${CONTROL_ROUTES.join(', ')}` },
    };
  }
  try {
    return await found.route(context, body, query, found.params);
  } catch (error) {
    // The streams half reports bad input as errors that carry their HTTP status.
    const status = (error as { status?: unknown }).status;
    if (typeof status === 'number' && status >= 400 && status < 500) {
      return { status, body: { message: (error as Error).message } };
    }
    throw error;
  }
}

/** The route for `METHOD /path`: an exact key, else a key whose `{name}` segments match any one segment. */
function findRoute(
  method: string,
  path: string,
): { route: ControlRoute; params: Record<string, string> } | undefined {
  const exact = routes[`${method} ${path}`];
  if (exact) return { route: exact, params: {} };
  const segments = path.split('/');
  for (const [key, route] of Object.entries(routes)) {
    const [keyMethod, keyPath] = key.split(' ') as [string, string];
    const pattern = keyPath.split('/');
    if (keyMethod !== method || !keyPath.includes('{') || pattern.length !== segments.length) continue;
    const params: Record<string, string> = {};
    const matches = pattern.every((part, i) => {
      const segment = segments[i]!;
      if (!part.startsWith('{')) return part === segment;
      if (segment === '') return false;
      params[part.slice(1, -1)] = safeDecode(segment);
      return true;
    });
    if (matches) return { route, params };
  }
  return undefined;
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function badInput(problem: string): HandlerResult {
  return { status: 400, body: { message: `Invalid request: ${problem}` } };
}

function withNode(
  node: ControlContext['node'],
  then: () => Promise<HandlerResult>,
): Promise<HandlerResult> | HandlerResult {
  if (!node) {
    return {
      status: 503,
      body: {
        message: 'The node interface is disabled: the emulator was started without anvil (--no-anvil)',
      },
    };
  }
  return then();
}

function ok(body: unknown): HandlerResult {
  return { status: 200, body };
}

async function withInput<S extends z.ZodType>(
  schema: S,
  body: unknown,
  then: (input: z.output<S>) => HandlerResult | Promise<HandlerResult>,
): Promise<HandlerResult> {
  const parsed = schema.safeParse(body ?? {});
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) =>
      issue.code === 'unrecognized_keys'
        ? `unknown field(s) ${issue.keys.join(', ')}`
        : `${issue.path.join('.') || 'body'} ${issue.message}`,
    );
    return badInput(problems.join('; '));
  }
  return then(parsed.data);
}

/** `path` without its trailing slashes; a loop, since `/\/+$/` backtracks quadratically on a path of many slashes. */
function withoutTrailingSlashes(path: string): string {
  let end = path.length;
  while (end > 0 && path[end - 1] === '/') end--;
  return path.slice(0, end);
}
