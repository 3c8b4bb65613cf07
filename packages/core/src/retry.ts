/**
 * The retry policy, kept apart from the transport so each rule is a plain function to test.
 * Exponential backoff with full jitter, capped; `Retry-After` is honoured and never undercut.
 */
import { ValidationError, type ValidationIssue } from './errors.js';
import { unknownKeyIssues } from './known-keys.js';

export interface RetryOptions {
  /** Attempts in all, the first one included. 1 means no retry. */
  maxAttempts: number;
  /** Upper bound of the first retry's random delay; doubles on each further retry. */
  baseDelayMs: number;
  /** Cap on any one delay. A `Retry-After` longer than this ends the retries. */
  maxDelayMs: number;
}

export const DEFAULT_RETRY: Readonly<RetryOptions> = Object.freeze({
  maxAttempts: 3,
  baseDelayMs: 300,
  maxDelayMs: 20_000,
});

export const NO_RETRY: Readonly<RetryOptions> = Object.freeze({
  maxAttempts: 1,
  baseDelayMs: 0,
  maxDelayMs: 0,
});

/** The longest delay a Node timer can wait (2^31-1 ms, about 24.8 days); a longer one fires at once. */
export const MAX_TIMER_MS = 2_147_483_647;

/** Statuses that say "try again later" rather than "this request is wrong". */
export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([408, 429, 500, 502, 503, 504]);

/** Network failures after which the request may or may not have reached the server. */
const TRANSIENT_NETWORK_CODES = new Set([
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'ECONNABORTED',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_RES_CONTENT_LENGTH_MISMATCH',
]);

/** Network failures that prove the request never reached the server: safe to repeat any request. */
const NEVER_SENT_CODES = new Set(['ECONNREFUSED', 'EAI_AGAIN']);

const RETRY_OPTION_NAMES = Object.keys(DEFAULT_RETRY) as (keyof RetryOptions)[];

/**
 * The retry policy from the `retry` client option: `undefined` (or a setting left `undefined`)
 * means the default, `false` one attempt. Anything else wrong is a `ValidationError` naming it.
 */
export function resolveRetryOptions(retry: Partial<RetryOptions> | false | undefined): RetryOptions {
  if (retry === false) return { ...NO_RETRY };
  if (retry === undefined) return { ...DEFAULT_RETRY };
  const fail = (issues: ValidationIssue[]) => new ValidationError(issues, { subject: 'client options' });
  if (typeof retry !== 'object' || retry === null || Array.isArray(retry)) {
    throw fail([
      {
        path: 'retry',
        message: 'must be an object such as { maxAttempts: 3 }, or false for a single attempt',
      },
    ]);
  }
  const issues: ValidationIssue[] = unknownKeyIssues(retry, {
    kind: 'retry setting',
    names: RETRY_OPTION_NAMES,
    pathPrefix: 'retry.',
  });
  const setting = (name: keyof RetryOptions) =>
    retry[name] === undefined ? DEFAULT_RETRY[name] : retry[name];
  const options: RetryOptions = {
    maxAttempts: setting('maxAttempts'),
    baseDelayMs: setting('baseDelayMs'),
    maxDelayMs: setting('maxDelayMs'),
  };
  if (!Number.isSafeInteger(options.maxAttempts) || options.maxAttempts < 1) {
    issues.push({ path: 'retry.maxAttempts', message: 'must be a whole number >= 1 (1 means no retry)' });
  }
  if (!(Number.isFinite(options.baseDelayMs) && options.baseDelayMs >= 0)) {
    issues.push({ path: 'retry.baseDelayMs', message: 'must be a finite number of milliseconds >= 0' });
  }
  if (typeof options.maxDelayMs !== 'number' || !(options.maxDelayMs >= 0)) {
    issues.push({
      path: 'retry.maxDelayMs',
      message: 'must be a number of milliseconds >= 0 (Infinity allowed)',
    });
  }
  if (issues.length > 0) throw fail(issues);
  return options;
}

/** `Retry-After` as milliseconds: delta-seconds or an HTTP date. Undefined when absent or unreadable. */
export function parseRetryAfter(
  value: string | undefined | null,
  now: number = Date.now(),
): number | undefined {
  if (value == null) return undefined;
  const text = value.trim();
  if (text === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(text)) return Math.ceil(Number(text) * 1000);
  // An HTTP date has a weekday and month name; anything else (like "-5") is not one.
  if (!/[a-z]/i.test(text)) return undefined;
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

/** Full jitter: a random delay between 0 and min(maxDelayMs, baseDelayMs * 2^(retry-1)). */
export function backoffDelay(
  retryNumber: number,
  options: RetryOptions,
  random: () => number = Math.random,
): number {
  const ceiling = Math.min(options.maxDelayMs, MAX_TIMER_MS, options.baseDelayMs * 2 ** (retryNumber - 1));
  return Math.floor(random() * ceiling);
}

/** What one attempt ended with, as far as the retry policy cares. */
export type AttemptOutcome =
  | { kind: 'status'; status: number; retryAfterMs?: number }
  | { kind: 'timeout' }
  | { kind: 'network'; code?: string }
  /** The body exceeded `maxResponseBytes`: it would again. */
  | { kind: 'too-large'; status?: number };

export type RetryDecision =
  | { retry: true; delayMs: number }
  | { retry: false; reason: 'exhausted' | 'not-retryable' | 'unsafe-to-repeat' }
  | { retry: false; reason: 'retry-after-too-long'; retryAfterMs: number };

/** Whether an attempt failed in a way that proves the request never reached the server. */
export function isNeverSent(outcome: AttemptOutcome): boolean {
  return outcome.kind === 'network' && outcome.code !== undefined && NEVER_SENT_CODES.has(outcome.code);
}

/**
 * Outcomes that prove the service did nothing, so even a request that is not safe to repeat can
 * be sent again: it never left (connection refused), or the service refused it with a 429 before
 * doing any work.
 */
export function isRefusedBeforeWork(outcome: AttemptOutcome): boolean {
  return isNeverSent(outcome) || (outcome.kind === 'status' && outcome.status === 429);
}

function isTransient(outcome: AttemptOutcome): boolean {
  switch (outcome.kind) {
    case 'status':
      return RETRYABLE_STATUSES.has(outcome.status);
    case 'timeout':
      return true;
    case 'network':
      return outcome.code === undefined || TRANSIENT_NETWORK_CODES.has(outcome.code) || isNeverSent(outcome);
    case 'too-large':
      return false;
  }
}

/**
 * Whether a request that ended this way may have been carried out by the service: it was sent
 * and no answer says it was refused (a timeout, a reset, a 5xx other than 501, an unreadable reply).
 */
export function mayHaveTakenEffect(outcome: AttemptOutcome): boolean {
  switch (outcome.kind) {
    case 'timeout':
      return true;
    case 'network':
      return !isNeverSent(outcome);
    case 'status':
    case 'too-large':
      return (
        outcome.status === undefined ||
        outcome.status < 400 ||
        (outcome.status >= 500 && outcome.status !== 501)
      );
  }
}

/**
 * Whether to try again after attempt number `attempt` (1-based).
 * A request that is not safe to repeat (`idempotent: false`) is retried only when the service
 * provably did nothing (refused connection, HTTP 429): never after a timeout, a reset or a 5xx.
 */
export function decideRetry(args: {
  attempt: number;
  outcome: AttemptOutcome;
  idempotent: boolean;
  options: RetryOptions;
  random?: () => number;
}): RetryDecision {
  const { attempt, outcome, idempotent, options } = args;
  if (!isTransient(outcome)) return { retry: false, reason: 'not-retryable' };
  if (!idempotent && !isRefusedBeforeWork(outcome)) return { retry: false, reason: 'unsafe-to-repeat' };
  if (attempt >= options.maxAttempts) return { retry: false, reason: 'exhausted' };
  const delayMs = backoffDelay(attempt, options, args.random);
  const retryAfterMs = outcome.kind === 'status' ? outcome.retryAfterMs : undefined;
  if (retryAfterMs === undefined) return { retry: true, delayMs };
  // Also with `maxDelayMs: Infinity`: a wait no timer can hold must end the retries, not be undercut.
  if (retryAfterMs > Math.min(options.maxDelayMs, MAX_TIMER_MS))
    return { retry: false, reason: 'retry-after-too-long', retryAfterMs };
  return { retry: true, delayMs: Math.max(delayMs, retryAfterMs) };
}
