/**
 * Fault injection per interface: a share of requests answered with an error status (429 with
 * Retry-After), a reset connection or a truncated body, and added latency. Outgoing webhook
 * deliveries have their own faults: a share of attempts lost on the way there or on the way back.
 * Decisions come from a seeded PRNG so a test sees the same sequence on every run (or use rate 1
 * for certainty).
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

/** The `interface` of `POST /faults` that sets the faults of outgoing webhook deliveries. */
export const DELIVERY_FAULTS = 'deliveries';

export const faultRequestSchema = faultConfigSchema.extend({
  /** One interface, or `all` (the default): every interface above, not the deliveries. */
  interface: z
    .enum([...FAULT_INTERFACES, 'all'], {
      error: `must be one of ${FAULT_INTERFACES.join(', ')}, all, ${DELIVERY_FAULTS}`,
    })
    .default('all'),
});

/** How a delivery attempt is lost: the two ways a network loses a webhook. */
export type DeliveryFault = 'lost-request' | 'lost-answer';

const deliveryFaultShape = {
  /** Share of delivery attempts lost before they reach the receiver: it sees nothing, the sender retries. */
  lostRequestRate: share.default(0),
  /**
   * Share of delivery attempts whose answer is lost: the receiver handled the delivery, but its
   * 2xx never reaches the sender, which retries — so the receiver sees the delivery again.
   */
  lostAnswerRate: share.default(0),
};
// One draw decides both, so the two shares must fit in it (give or take a rounding: 0.3 + 0.7).
const withinOneDraw = <S extends z.ZodType<{ lostRequestRate: number; lostAnswerRate: number }>>(schema: S) =>
  schema.refine((config) => config.lostRequestRate + config.lostAnswerRate <= 1 + 1e-12, {
    error: 'must be at most 1 - lostRequestRate (the two rates add up to the share of attempts lost)',
    path: ['lostAnswerRate'],
  });

export const deliveryFaultConfigSchema = withinOneDraw(z.strictObject(deliveryFaultShape));
export type DeliveryFaultConfig = z.output<typeof deliveryFaultConfigSchema>;
export type DeliveryFaultConfigInput = z.input<typeof deliveryFaultConfigSchema>;

export const deliveryFaultRequestSchema = withinOneDraw(
  z.strictObject({ interface: z.literal(DELIVERY_FAULTS), ...deliveryFaultShape }),
);

/** Faults from the start: per interface (or `all`), and for outgoing webhook deliveries. */
export type FaultOptions = Partial<Record<FaultInterface | 'all', FaultConfigInput>> & {
  deliveries?: DeliveryFaultConfigInput;
};

/** What `GET /faults` answers: the faults of each interface that has some, and of the deliveries. */
export type CurrentFaults = Partial<Record<FaultInterface, FaultConfig>> & {
  deliveries?: DeliveryFaultConfig;
};

export type FaultDecision =
  | { kind: 'none'; latencyMs: number }
  | { kind: 'status'; latencyMs: number; status: number; retryAfterSeconds: number | null }
  | { kind: 'reset'; latencyMs: number }
  | { kind: 'truncate'; latencyMs: number };

export interface Faults {
  set(target: FaultInterface | 'all', config: FaultConfigInput): void;
  setDeliveries(config: DeliveryFaultConfigInput): void;
  /** `all` (the default) ends every fault, the deliveries' included. */
  clear(target?: FaultInterface | typeof DELIVERY_FAULTS | 'all'): void;
  current(): CurrentFaults;
  decide(target: FaultInterface): FaultDecision;
  /** Whether one webhook delivery attempt is lost, and how. */
  decideDelivery(): DeliveryFault | undefined;
  /** Whether one JSON-RPC call is refused with `-32005` (`rpcLimitRate` of the node interface). */
  limitRpcCall(): boolean;
}

export function createFaults(seed: number, initial: FaultOptions = {}): Faults {
  const random = createRandom(seed, 'faults');
  // A stream of its own: deliveries run beside requests, and neither may shift the other's sequence.
  const deliveryRandom = createRandom(seed, 'delivery-faults');
  const configs = new Map<FaultInterface, FaultConfig>();
  let deliveries: DeliveryFaultConfig | undefined;
  const targets = (target: FaultInterface | 'all') => (target === 'all' ? FAULT_INTERFACES : [target]);
  const faults: Faults = {
    set(target, config) {
      const parsed = faultConfigSchema.parse(config);
      for (const name of targets(target)) configs.set(name, parsed);
    },
    setDeliveries(config) {
      deliveries = deliveryFaultConfigSchema.parse(config);
    },
    clear(target = 'all') {
      if (target === 'all' || target === DELIVERY_FAULTS) deliveries = undefined;
      if (target !== DELIVERY_FAULTS) for (const name of targets(target)) configs.delete(name);
    },
    current: () => ({ ...Object.fromEntries(configs), ...(deliveries ? { deliveries } : {}) }),
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
    decideDelivery() {
      if (!deliveries) return undefined;
      const draw = deliveryRandom.next();
      if (draw < deliveries.lostRequestRate) return 'lost-request';
      if (draw < deliveries.lostRequestRate + deliveries.lostAnswerRate) return 'lost-answer';
      return undefined;
    },
  };
  const { deliveries: initialDeliveries, ...perInterface } = initial;
  for (const [target, config] of Object.entries(perInterface)) {
    if (config) faults.set(target as FaultInterface | 'all', config);
  }
  if (initialDeliveries) faults.setDeliveries(initialDeliveries);
  return faults;
}
