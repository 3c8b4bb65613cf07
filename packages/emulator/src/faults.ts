/**
 * Fault injection per interface: a share of requests answered with an error status (429 with
 * Retry-After), a reset connection or a truncated body, and added latency. Decisions come from a
 * seeded PRNG so a test sees the same sequence on every run (or use rate 1 for certainty).
 */
import * as z from 'zod/v4';
import { createRandom } from './random.js';

export const FAULT_INTERFACES = ['evm', 'solana', 'streams', 'node'] as const;
export type FaultInterface = (typeof FAULT_INTERFACES)[number];

const share = z.number({ error: 'must be a number between 0 and 1' }).min(0).max(1);

export const faultConfigSchema = z.strictObject({
  /** Share of requests answered with one of `statuses`. */
  rate: share.default(0),
  /** Statuses to pick from (uniformly). Default: 429, 500, 502, 503. */
  statuses: z
    .array(z.number().int().min(400).max(599), { error: 'must be a list of HTTP statuses 400-599' })
    .min(1)
    .default([429, 500, 502, 503]),
  /** Retry-After sent with 429 and 503 answers, in seconds; `null` sends none. */
  retryAfterSeconds: z.number().min(0).nullable().default(1),
  /** Added to every request of the interface, in milliseconds. */
  latencyMs: z.number().int().min(0).max(60_000).default(0),
  /** Share of requests whose connection is reset without an answer. */
  resetRate: share.default(0),
  /** Share of requests whose body is cut off half-way. */
  truncateRate: share.default(0),
  /**
   * Node interface only: share of JSON-RPC calls (each call of a batch drawn on its own) answered
   * `-32005` "limit exceeded" inside a 200, without reaching the node: a rate-limited node.
   */
  rpcLimitRate: share.default(0),
});
export type FaultConfig = z.output<typeof faultConfigSchema>;
export type FaultConfigInput = z.input<typeof faultConfigSchema>;

export const faultRequestSchema = faultConfigSchema.extend({
  /** One interface, or `all` (the default). */
  interface: z
    .enum([...FAULT_INTERFACES, 'all'], { error: `must be one of ${FAULT_INTERFACES.join(', ')}, all` })
    .default('all'),
});

export type FaultDecision =
  | { kind: 'none'; latencyMs: number }
  | { kind: 'status'; latencyMs: number; status: number; retryAfterSeconds: number | null }
  | { kind: 'reset'; latencyMs: number }
  | { kind: 'truncate'; latencyMs: number };

export interface Faults {
  set(target: FaultInterface | 'all', config: FaultConfigInput): void;
  clear(target?: FaultInterface | 'all'): void;
  current(): Partial<Record<FaultInterface, FaultConfig>>;
  decide(target: FaultInterface): FaultDecision;
  /** Whether one JSON-RPC call is refused with `-32005` (`rpcLimitRate` of the node interface). */
  limitRpcCall(): boolean;
}

export function createFaults(
  seed: number,
  initial: Partial<Record<FaultInterface | 'all', FaultConfigInput>> = {},
): Faults {
  const random = createRandom(seed, 'faults');
  const configs = new Map<FaultInterface, FaultConfig>();
  const targets = (target: FaultInterface | 'all') => (target === 'all' ? FAULT_INTERFACES : [target]);
  const faults: Faults = {
    set(target, config) {
      const parsed = faultConfigSchema.parse(config);
      for (const name of targets(target)) configs.set(name, parsed);
    },
    clear(target = 'all') {
      for (const name of targets(target)) configs.delete(name);
    },
    current: () => Object.fromEntries(configs),
    decide(target) {
      const config = configs.get(target);
      if (!config) return { kind: 'none', latencyMs: 0 };
      const latencyMs = config.latencyMs;
      // One draw per request decides among the faults, so rates add up as documented.
      const draw = random.next();
      if (draw < config.resetRate) return { kind: 'reset', latencyMs };
      if (draw < config.resetRate + config.rate) {
        return {
          kind: 'status',
          latencyMs,
          status: random.pick(config.statuses),
          retryAfterSeconds: config.retryAfterSeconds,
        };
      }
      if (draw < config.resetRate + config.rate + config.truncateRate) return { kind: 'truncate', latencyMs };
      return { kind: 'none', latencyMs };
    },
    limitRpcCall() {
      const rate = configs.get('node')?.rpcLimitRate ?? 0;
      // No draw without the fault, so the other faults' sequence stays what it was.
      return rate > 0 && random.next() < rate;
    },
  };
  for (const [target, config] of Object.entries(initial)) {
    if (config) faults.set(target as FaultInterface | 'all', config);
  }
  return faults;
}
