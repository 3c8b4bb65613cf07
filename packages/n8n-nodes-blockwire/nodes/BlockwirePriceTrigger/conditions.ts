/**
 * When the Price Trigger fires, as a pure function of the rule, what it kept from earlier polls and
 * the price polled now. The first poll of a token arms it: it records the price and never fires.
 */

export const CONDITIONS = {
  crossesAbove: {
    name: 'Crosses Above',
    description: 'Fires once each time the price rises above the given price',
  },
  crossesBelow: {
    name: 'Crosses Below',
    description: 'Fires once each time the price falls below the given price',
  },
  movesSinceAlert: {
    name: 'Moves More Than a Percentage Since the Last Alert',
    description:
      'Fires when the price is more than the given percentage away from the price of the last alert (at first: the price when the trigger was armed)',
  },
  movesOverWindow: {
    name: 'Moves More Than a Percentage Over a Window',
    description:
      'Fires when the price is more than the given percentage away from the earliest price polled within the window',
  },
} as const satisfies Record<string, { name: string; description: string }>;

export type Condition = keyof typeof CONDITIONS;

export const isCondition = (value: unknown): value is Condition =>
  typeof value === 'string' && Object.hasOwn(CONDITIONS, value);

export interface Rule {
  condition: Condition;
  /** crossesAbove / crossesBelow: the USD price. */
  threshold: number;
  /** movesSinceAlert / movesOverWindow: the move, in percent. */
  percent: number;
  /** movesOverWindow: the window's length. */
  windowMinutes: number;
}

/** What the trigger keeps of one token between polls (in the workflow's static data: JSON only). */
export interface TokenState {
  /** The price of the last poll and when it was polled (epoch ms). */
  price: number;
  at: number;
  /** Crossings: whether the price was past the threshold in the alert's direction. */
  beyond?: boolean;
  /** movesSinceAlert: the price of the last alert, or the armed price. */
  reference?: number;
  /** movesOverWindow: the prices polled within the window, oldest first. */
  window?: { at: number; price: number }[];
}

export interface Alert {
  /** The price the move is measured from: the last poll's (crossings), the reference or the window's start. */
  previousPrice: number;
  direction: 'up' | 'down';
  changePercent: number;
}

/** The most samples a window keeps (a poll a minute for a day), so static data stays small. */
const WINDOW_SAMPLES_MAX = 1_440;

export function evaluate(
  rule: Rule,
  state: TokenState | undefined,
  price: number,
  now: number,
): { state: TokenState; alert?: Alert } {
  switch (rule.condition) {
    case 'crossesAbove':
    case 'crossesBelow': {
      const beyond = rule.condition === 'crossesAbove' ? price > rule.threshold : price < rule.threshold;
      const next = { price, at: now, beyond };
      if (!state || state.beyond === undefined || state.beyond || !beyond) return { state: next };
      return { state: next, alert: alertFrom(state.price, price) };
    }
    case 'movesSinceAlert': {
      const reference = state?.reference;
      if (reference === undefined || !movedMore(reference, price, rule.percent)) {
        return { state: { price, at: now, reference: reference ?? price } };
      }
      return { state: { price, at: now, reference: price }, alert: alertFrom(reference, price) };
    }
    case 'movesOverWindow': {
      const since = now - rule.windowMinutes * 60_000;
      const window = (state?.window ?? []).filter((sample) => sample.at >= since);
      const start = window[0];
      if (state?.window === undefined || !start || !movedMore(start.price, price, rule.percent)) {
        const kept = [...window, { at: now, price }].slice(-WINDOW_SAMPLES_MAX);
        return { state: { price, at: now, window: kept } };
      }
      // The move starts a new window, so the same move does not fire again on the next poll.
      return {
        state: { price, at: now, window: [{ at: now, price }] },
        alert: alertFrom(start.price, price),
      };
    }
  }
}

function movedMore(from: number, to: number, percent: number): boolean {
  return from > 0 && (Math.abs(to - from) / from) * 100 > percent;
}

function alertFrom(previousPrice: number, price: number): Alert {
  const changePercent = previousPrice > 0 ? ((price - previousPrice) / previousPrice) * 100 : 0;
  return {
    previousPrice,
    direction: price >= previousPrice ? 'up' : 'down',
    changePercent: Number(changePercent.toFixed(6)),
  };
}
