import { JsonRpcError, ResponseValidationError, redactValue } from '@blockwire/core/operations';
import { unsafeToRepeat } from './call-kinds.js';
import { isRecord } from './is-record.js';

/** What matching a reply and naming a failure need to know of the call that was sent. */
export interface SentCall {
  id: number;
  method: string;
  /** The SDK method (or JSON-RPC method) that asked, for errors and hooks. */
  operation: string;
  /** Attempts made after a "limit exceeded" answer, the first one included. */
  attempts: number;
}

/** Where errors say the call went (the key masked). */
export interface CallSite {
  method: string;
  path: string;
  baseUrl: string | undefined;
}

/** Each call's reply as found in the body, or the error that stands for it when none can be told. */
export type Match<C> = { call: C; reply: unknown } | { call: C; error: unknown };

/**
 * Pairs each call of a request with its reply in the body by id. `unreadable` is what an error
 * says about a body or an answer that cannot be read.
 */
export function matchReplies<C extends SentCall>(
  calls: C[],
  data: unknown,
  httpAttempts: number,
  unreadable: CallSite & { outcomeUnknown: boolean },
): Match<C>[] {
  const single = calls.length === 1 ? calls[0] : undefined;
  if (!Array.isArray(data) && !isRecord(data)) {
    const error = new ResponseValidationError(
      [{ path: '', message: `the body is not a JSON-RPC answer (${describeBody(data)})` }],
      { ...unreadable, operation: single?.operation, attempts: httpAttempts },
    );
    return calls.map((call) => ({ call, error }));
  }
  const replies = Array.isArray(data) ? data : [data];
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
  return calls.map((call) => {
    const matches = byId.get(String(call.id)) ?? [];
    if (matches.length > 1) {
      return {
        call,
        error: new ResponseValidationError(
          [
            {
              path: '',
              message: `the response has ${matches.length} answers for call id ${call.id} (${call.method}); which one is meant cannot be told`,
            },
          ],
          { ...unreadable, operation: call.operation, attempts: httpAttempts },
        ),
      };
    }
    return { call, reply: matches[0] ?? unattributedError };
  });
}

/** What one reply says: a result, an error the node sent (`rpcError`), or an error of ours. */
export type ReplyOutcome = { result: unknown } | { rpcError: JsonRpcError } | { error: unknown };

/** Reads a call's reply, with the node's own error made a `JsonRpcError` (its text redacted). */
export function readReply(
  call: SentCall,
  reply: unknown,
  httpAttempts: number,
  where: CallSite,
  redact: (text: string) => string,
): ReplyOutcome {
  // The usual answer: a result, and nothing else to work out.
  if (isRecord(reply) && 'result' in reply && !isRecord(reply.error)) return { result: reply.result };
  const details = { ...where, operation: call.operation };
  const unreadable = { ...details, outcomeUnknown: unsafeToRepeat(call.method) };
  if (!isRecord(reply)) {
    return {
      error: new ResponseValidationError(
        [{ path: '', message: `the response has no answer for call id ${call.id} (${call.method})` }],
        { ...unreadable, attempts: httpAttempts },
      ),
    };
  }
  if (isRecord(reply.error)) return { rpcError: toJsonRpcError(reply.error, call, details, redact) };
  if (!('result' in reply)) {
    return {
      error: new ResponseValidationError(
        [
          {
            path: '',
            message: `the answer to call id ${call.id} (${call.method}) has neither result nor error`,
          },
        ],
        { ...unreadable, attempts: httpAttempts },
      ),
    };
  }
  return { result: reply.result };
}

function toJsonRpcError(
  error: Record<string, unknown>,
  call: SentCall,
  details: object,
  redact: (text: string) => string,
): JsonRpcError {
  // -32603 (internal error) stands in for a missing or malformed code.
  const code = typeof error.code === 'number' ? error.code : -32603;
  const message = typeof error.message === 'string' ? redact(error.message) : 'no message';
  const data = redactValue(error.data, redact);
  return new JsonRpcError(
    { code, message, ...(data === undefined ? {} : { data }) },
    { ...details, attempts: call.attempts, rpcMethod: call.method },
  );
}

function describeBody(body: unknown): string {
  if (body === undefined) return 'empty';
  if (typeof body === 'string') return 'not JSON';
  return `a JSON ${body === null ? 'null' : typeof body}`;
}
