/**
 * The one check of option objects' keys, for every options object of every package: a mistyped
 * name (`onBitcoinn`, `maxAttempt`) is a `ValidationError` naming it and the name probably meant,
 * never an option silently ignored. Plain JavaScript callers get no compiler help, so this is
 * their only warning. Pure: no timers, no I/O, nothing of the runtime (the n8n node bundles it).
 */
import { ValidationError, type ValidationIssue } from './errors.js';
import { didYouMean } from './suggest.js';

export interface KnownKeys {
  /** What one key is, singular: `option`, `retry setting`, `hook`. */
  kind: string;
  /** Every key allowed, in the order the documentation lists them. */
  names: readonly string[];
  /** Put before each key in an issue's path: `retry.` for `retry.maxAttempt`. */
  pathPrefix?: string;
  /** Said after the list, in parentheses: what the reader may have confused it with. */
  note?: string;
}

/** One issue per key of `value` that is not one of `known.names`; none when all are known. */
export function unknownKeyIssues(value: object, known: KnownKeys): ValidationIssue[] {
  const { kind, names, pathPrefix = '', note } = known;
  const list = `the ${kind}s are ${names.join(', ')}${note ? ` (${note})` : ''}`;
  return Object.keys(value)
    .filter((name) => !names.includes(name))
    .map((name) => ({
      path: `${pathPrefix}${name}`,
      message: `is not ${/^[aeiou]/i.test(kind) ? 'an' : 'a'} ${kind}${didYouMean(name, names)}; ${list}`,
    }));
}

/**
 * Throws a `ValidationError` about `subject` (`createWebhookHandler options`) when `value` is not
 * a plain object or has a key that is not known; returns it typed otherwise.
 */
export function checkOptionsObject<T extends object>(
  value: unknown,
  known: KnownKeys & { subject: string; example: string },
): T {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ValidationError([{ path: '', message: `must be an options object such as ${known.example}` }], {
      subject: known.subject,
    });
  }
  const issues = unknownKeyIssues(value, known);
  if (issues.length > 0) throw new ValidationError(issues, { subject: known.subject });
  return value as T;
}
