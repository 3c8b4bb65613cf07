import { ValidationError, type ValidationIssue } from '@blockwire/core';
// The payload check of core's runtime, not only of its runtime-free entry: fields read through
// code compiled per schema shape where the runtime allows it (a 3,000-transaction Bitcoin
// delivery's check: under 1.5 ms instead of 7 ms). exports.test.ts holds the kit to it.
import { runtimeValidationPaths } from '@blockwire/core/internal';
import { checkOptionsObject } from '@blockwire/core/operations';
import { isBlankText, rawTextOf } from './body.js';
import { listening, publish } from './events.js';
import type { NodeIncomingMessage, NodeServerResponse } from './node-types.js';
import {
  type BitcoinDeliveryStage,
  type BitcoinWebhook,
  bitcoinDeliveryStage,
  type EvmWebhook,
  isBitcoinWebhook,
  isVerificationRequest,
  parseBitcoinWebhookWith,
  parseEvmWebhookWith,
} from './payloads.js';
import { KeccakFailure, signatureBytesOf, verifyDelivery, verifyRawDelivery } from './signature.js';
import type { AcceptedDelivery, BitcoinTxTracker, TxChange } from './tracker.js';
import type { DeliveryEvent, DeliveryRefusal } from './webhook-events.js';

type HeaderBag = Headers | Record<string, string | string[] | undefined>;

/** A request as any framework can describe it. Give `rawBody` when you have it, else the parsed `body`. */
export interface WebhookRequest {
  method?: string;
  headers: HeaderBag;
  /** The parsed JSON body, or the raw body as a string or bytes. */
  body?: unknown;
  /** The raw request body. */
  rawBody?: string | Uint8Array;
}

export interface WebhookResponse {
  status: number;
  body: { ok: boolean; message: string };
}

export interface BitcoinDeliveryContext {
  stage: BitcoinDeliveryStage;
  /** What this delivery moved forward (only with a `tracker`; `[]` for a delivery already seen). */
  changes: TxChange[] | undefined;
  /** The stored delivery (with a tracker whose store keeps deliveries). */
  deliveryId: string | undefined;
}

export interface WebhookErrorContext {
  /** `'unknown'` where the delivery failed before its body was read (`phase: 'receive'`). */
  kind: 'bitcoin' | 'evm' | 'unknown';
  /**
   * Where it failed: taking the request in (reading the body, hashing it: answered 500, so the
   * service delivers it again), reading the payload, storing it, or in your callback.
   */
  phase: 'receive' | 'payload' | 'store' | 'callback';
  payload: unknown;
  deliveryId?: string | undefined;
}

export interface WebhookHandlerOptions {
  /** The project's webhook secret (`secretKey` in the project settings). */
  secret: string;
  /** Runs after the 200 for each accepted Bitcoin delivery. */
  onBitcoin?: (payload: BitcoinWebhook, context: BitcoinDeliveryContext) => unknown;
  /** Runs after the 200 for each accepted EVM delivery. */
  onEvm?: (payload: EvmWebhook) => unknown;
  /** Bitcoin deliveries are ingested here (durably, with a SQLite store) before answering 200. */
  tracker?: BitcoinTxTracker;
  /**
   * Told about payloads that do not parse, store failures and callbacks that throw; sync or async.
   * Defaults to `console.error`, which also gets what this hook throws or rejects with.
   */
  onError?: (error: unknown, context: WebhookErrorContext) => unknown;
  /**
   * With a `tracker` whose store keeps deliveries: when the handler is created, run `onBitcoin`
   * again for every delivery whose callback never finished (the process died first) or failed,
   * oldest first and with the changes it made, before the callbacks of newer deliveries; then
   * settle each. Default `true`. With several processes on one SQLite file, leave it on in one
   * only; a store that knows which process owns a delivery (the PostgreSQL store) hands each
   * process only its own and those of processes that died, so leave it on everywhere.
   */
  resumePending?: boolean;
  /**
   * With `resumePending`: also look for unfinished deliveries every this many milliseconds while
   * running, and run their callbacks — those of receivers that died since (PostgreSQL store), and
   * this receiver's own failed ones again. Off by default. `close()` stops it.
   */
  resumeEveryMs?: number;
}

export interface NodeListenerOptions {
  /** Larger bodies are refused with 413. Default 32 MiB (Bitcoin block deliveries reach a few MB). */
  maxBodyBytes?: number;
}

/** The options of `toFetchHandler`: the same as a Node listener's. */
export type FetchHandlerOptions = NodeListenerOptions;

type NodeRequest = NodeIncomingMessage & { body?: unknown; rawBody?: string | Uint8Array };
export type NodeListener = (req: NodeRequest, res: NodeServerResponse) => Promise<void>;

/**
 * A Fetch-API handler, `Request → Response` (Workers, Deno, Bun, Hono, a Next.js route). It
 * takes the request alone; a Worker's `env` and `ctx`, passed after it, are ignored.
 */
export type FetchHandler = (request: Request, ...ignored: unknown[]) => Promise<Response>;

/** The default cap on a signed body, for the Node and the Fetch handler alike. */
const DEFAULT_MAX_BODY_BYTES = 32 * 1024 * 1024;

export interface WebhookHandler {
  (request: WebhookRequest): Promise<WebhookResponse>;
  /** The same handler as a `node:http` / Express-style `(req, res)` listener. */
  node: NodeListener;
  /**
   * The same handler for a Fetch-API server, `Request → Response`: it reads the body itself, with
   * the Node listener's cap and its refusal of large unsigned bodies before they are read.
   */
  fetch: FetchHandler;
  /**
   * Resolves once every callback started so far has finished, `onError` and the resumed
   * deliveries of `resumePending` included (for tests and graceful shutdown).
   */
  idle(): Promise<void>;
  /** Stops looking for unfinished deliveries (`resumeEveryMs`), then waits like `idle()`. */
  close(): Promise<void>;
}

const reply = (status: number, message: string): WebhookResponse => ({
  status,
  body: { ok: status === 200, message },
});

type DeliveryNote = Omit<DeliveryEvent, 'status'>;

/** What each answer meant, for the delivery event the handler publishes once it answered. */
const notes = new WeakMap<WebhookResponse, DeliveryNote>();

/** `reply`, noting what the answer means (see `WEBHOOK_CHANNELS.delivery`). */
function answer(status: number, message: string, note: DeliveryNote): WebhookResponse {
  const response = reply(status, message);
  if (listening('delivery')) notes.set(response, note);
  return response;
}

const refusal = (reason: DeliveryRefusal): DeliveryNote => ({ outcome: 'refused', reason });
const failure = (reason: DeliveryRefusal, kind?: 'bitcoin' | 'evm'): DeliveryNote => ({
  outcome: 'failed',
  reason,
  ...(kind ? { kind } : {}),
});
const VERIFICATION: DeliveryNote = { outcome: 'verification' };
const UNREADABLE_BITCOIN: DeliveryNote = {
  outcome: 'unreadable',
  reason: 'invalid-payload',
  kind: 'bitcoin',
};
const UNREADABLE_EVM: DeliveryNote = { outcome: 'unreadable', reason: 'invalid-payload', kind: 'evm' };

/** One stage event per transaction a Bitcoin delivery moved forward. */
function publishStages(context: BitcoinDeliveryContext): void {
  for (const change of context.changes ?? []) {
    publish('stage', () => ({
      txid: change.txid,
      from: change.from,
      to: change.to,
      deliveryId: context.deliveryId,
    }));
  }
}

function publishCallbackFailure(
  kind: 'bitcoin' | 'evm',
  deliveryId: string | undefined,
  error: unknown,
): void {
  publish('callback', () => ({
    kind,
    outcome: 'failed',
    deliveryId,
    errorType: error instanceof Error ? error.name : typeof error,
  }));
}

/** Publishes the delivery event of an answer (one per request answered). */
function published(response: WebhookResponse): WebhookResponse {
  publish('delivery', deliveryEventOf, response);
  return response;
}

const deliveryEventOf = (response: WebhookResponse): DeliveryEvent => ({
  status: response.status,
  ...(notes.get(response) ?? { outcome: 'refused' }),
});

function headerOf(headers: HeaderBag, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  // node:http and most frameworks give header names in lower case: one lookup, no scan.
  const direct = (headers as Record<string, string | string[] | undefined>)[name];
  if (typeof direct === 'string' && Object.hasOwn(headers, name)) return direct;
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() !== name) continue;
    if (Array.isArray(value)) return value.length === 1 ? value[0] : undefined;
    return value;
  }
  return undefined;
}

/**
 * Resolves on a later turn of the event loop: `setImmediate` on Node (after pending I/O), a
 * zero-delay timer where there is none (workerd, browsers).
 */
const nextTurn = (): Promise<void> =>
  new Promise((resolve) =>
    typeof setImmediate === 'function' ? setImmediate(resolve) : setTimeout(resolve, 0),
  );

/**
 * The largest unsigned body a receiver reads: enough for a verification POST sent as a payload
 * with empty values, far too small to cost anything. Larger unsigned bodies get 401 unread.
 */
export const UNSIGNED_BODY_LIMIT = 16 * 1024;

/** A body given as received (text or bytes), or `undefined` when the framework parsed it. */
function receivedForm(body: unknown): string | Uint8Array | undefined {
  if (typeof body === 'string' || body instanceof Uint8Array) return body;
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  return undefined;
}

/** The size of a raw body (UTF-16 units for text: an upper bound of nothing, a cheap bound), or -1. */
function byteLengthOf(body: unknown): number {
  if (typeof body === 'string') return body.length;
  if (body instanceof Uint8Array || body instanceof ArrayBuffer) return body.byteLength;
  return -1;
}

/**
 * A delivery without a well-formed `x-signature`: only the verification POST (empty, or a small
 * payload with empty values) is answered 200; everything else 401, and a large body unparsed.
 */
function unsignedReply(raw: unknown, signature: string | undefined): WebhookResponse {
  const small = byteLengthOf(raw) <= UNSIGNED_BODY_LIMIT;
  return small && isVerificationRequest(raw)
    ? answer(200, 'verification request', VERIFICATION)
    : unsigned(signature);
}

const unsigned = (signature: string | undefined): WebhookResponse =>
  signature === undefined
    ? answer(401, 'the x-signature header is missing', refusal('missing-signature'))
    : answer(401, 'the x-signature is malformed', refusal('malformed-signature'));

/** Every option of `createWebhookHandler` (the type keeps this list complete). */
const HANDLER_OPTIONS = Object.keys({
  secret: true,
  onBitcoin: true,
  onEvm: true,
  tracker: true,
  onError: true,
  resumePending: true,
  resumeEveryMs: true,
} satisfies Record<keyof WebhookHandlerOptions, true>);

const CALLBACKS = ['onBitcoin', 'onEvm', 'onError'] as const;

/**
 * Every mistake at once, as a `ValidationError` naming the option: a mistyped callback
 * (`onBitcoinn`) would otherwise be ignored, and every delivery answered 200 with nothing called.
 */
function checkHandlerOptions(value: unknown): WebhookHandlerOptions {
  const subject = 'createWebhookHandler options';
  const options = checkOptionsObject<WebhookHandlerOptions>(value, {
    subject,
    kind: 'option',
    names: HANDLER_OPTIONS,
    example: '{ secret, onBitcoin }',
  });
  const issues: ValidationIssue[] = [];
  if (typeof options.secret !== 'string' || options.secret === '') {
    // Without it every delivery would be refused with 401: say so now, not at the first delivery.
    issues.push({ path: 'secret', message: 'is needed: the project secretKey webhooks are signed with' });
  }
  for (const name of CALLBACKS) {
    if (options[name] !== undefined && typeof options[name] !== 'function') {
      issues.push({ path: name, message: 'must be a function' });
    }
  }
  const every = options.resumeEveryMs;
  if (every !== undefined && !(typeof every === 'number' && Number.isFinite(every) && every > 0)) {
    issues.push({ path: 'resumeEveryMs', message: 'must be a positive number of milliseconds' });
  }
  if (issues.length > 0) throw new ValidationError(issues, { subject });
  return options;
}

/**
 * A webhook receiver that follows the service's rules: the verification POST gets 200 and nothing
 * else; a missing or wrong `x-signature` gets 401; malformed JSON gets 400; an accepted delivery is
 * written to the tracker first, then answered 200, then handed to your callbacks. A callback that
 * throws is reported to `onError` and still answered 200 (else the service retries forever), and
 * the delivery stays recorded in the tracker's store; a durable store's unfinished deliveries are
 * run again when the handler is created (`resumePending`). No callback or hook, sync or async,
 * can take the process down.
 */
export function createWebhookHandler(options: WebhookHandlerOptions): WebhookHandler {
  const { secret, onBitcoin, onEvm, tracker, resumeEveryMs } = checkHandlerOptions(options);
  const paths = runtimeValidationPaths();

  const running = new Set<Promise<void>>();
  /** Runs work in the background, where idle() can wait for it; it can never reject. */
  function track(work: () => Promise<void>): Promise<void> {
    const task: Promise<void> = work()
      .catch((error: unknown) => logFailure('[@blockwire/streams] webhook handler failed', error))
      .finally(() => running.delete(task));
    running.add(task);
    return task;
  }

  /** Tells `onError` (or the console); resolves when it is done and never rejects. */
  async function report(error: unknown, context: WebhookErrorContext): Promise<void> {
    const failedToo = (hookError: unknown) =>
      logFailure(
        `[@blockwire/streams] webhook delivery failed (${context.kind}, ${context.phase})`,
        error,
        '— and onError failed too:',
        hookError ?? new Error('onError failed without a reason'),
      );
    if (!options.onError) {
      return logFailure(
        `[@blockwire/streams] webhook delivery failed (${context.kind}, ${context.phase})`,
        error,
      );
    }
    let result: unknown;
    try {
      result = options.onError(error, context);
    } catch (hookError) {
      return failedToo(hookError);
    }
    if (isThenable(result)) await Promise.resolve(result).then(undefined, failedToo);
  }

  async function runBitcoin(payload: BitcoinWebhook, context: BitcoinDeliveryContext): Promise<void> {
    let failure: unknown;
    try {
      await onBitcoin?.(payload, context);
    } catch (error) {
      failure = error ?? new Error('onBitcoin threw');
      publishCallbackFailure('bitcoin', context.deliveryId, error);
      await report(error, { kind: 'bitcoin', phase: 'callback', payload, deliveryId: context.deliveryId });
    }
    try {
      await tracker?.settle(context.deliveryId, failure);
    } catch (error) {
      await report(error, { kind: 'bitcoin', phase: 'store', payload, deliveryId: context.deliveryId });
    }
  }

  // The deliveries a crash (or a failed callback) left unfinished: read before any new delivery
  // changes a record, their callbacks run before any newer one's.
  const resuming =
    tracker && options.resumePending !== false && typeof tracker.resumeDeliveries === 'function';
  const pending: Promise<AcceptedDelivery[]> = resuming
    ? nextTurn()
        .then(() => tracker.resumeDeliveries())
        .catch(async (error: unknown) => {
          await report(error, { kind: 'bitcoin', phase: 'store', payload: undefined });
          return [];
        })
    : Promise.resolve([]);
  /** A delivery whose callback never finished (or failed), run again. */
  function runAgain(accepted: AcceptedDelivery): Promise<void> {
    publish('callback', () => ({ kind: 'bitcoin', outcome: 'resumed', deliveryId: accepted.deliveryId }));
    return runBitcoin(accepted.payload, contextOf(accepted));
  }
  const resumed = track(async () => {
    for (const accepted of await pending) await runAgain(accepted);
  });

  let closed = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  /** One look for unfinished deliveries; the next is scheduled once this one is done. */
  function resumeLater(): void {
    if (closed || !resuming || resumeEveryMs === undefined) return;
    timer = setTimeout(() => {
      timer = undefined;
      void track(async () => {
        await resumed;
        let again: AcceptedDelivery[] = [];
        try {
          again = await tracker.resumeDeliveries();
        } catch (error) {
          await report(error, { kind: 'bitcoin', phase: 'store', payload: undefined });
        }
        for (const accepted of again) await runAgain(accepted);
      }).finally(resumeLater);
    }, resumeEveryMs);
    // A receiver that is otherwise done must still be able to exit.
    (timer as { unref?: () => void }).unref?.();
  }
  resumeLater();

  const later = (work: () => Promise<void>) =>
    track(async () => {
      // A later turn: the caller writes its 200 before any callback starts.
      await nextTurn();
      await resumed;
      await work();
    });

  async function acceptBitcoin(body: unknown): Promise<WebhookResponse> {
    let payload: BitcoinWebhook;
    let context: BitcoinDeliveryContext;
    try {
      if (tracker) {
        await pending;
        const accepted = await tracker.accept(body);
        payload = accepted.payload;
        context = contextOf(accepted);
      } else {
        payload = parseBitcoinWebhookWith(body, paths);
        context = { stage: bitcoinDeliveryStage(payload), changes: undefined, deliveryId: undefined };
      }
    } catch (error) {
      if (error instanceof ValidationError) {
        // Signed by the service, so retrying would not fix it; it stays recorded as failed.
        track(() => report(error, { kind: 'bitcoin', phase: 'payload', payload: body }));
        return answer(200, 'accepted, but the payload did not parse; reported', UNREADABLE_BITCOIN);
      }
      // Not durably written (or not read, by a fault here): let the service deliver it again.
      const phase = tracker ? 'store' : 'payload';
      track(() => report(error, { kind: 'bitcoin', phase, payload: body }));
      return tracker
        ? answer(500, 'could not record the delivery', failure('store-failed', 'bitcoin'))
        : answer(500, 'could not read the payload', failure('receiver-failed', 'bitcoin'));
    }
    publishStages(context);
    // With nothing to call back and nothing to settle, nothing is left for later (as for EVM
    // without onEvm): the payload is not held past the answer for an empty task.
    if (onBitcoin || tracker) later(() => runBitcoin(payload, context));
    return answer(200, 'accepted', {
      outcome: 'accepted',
      kind: 'bitcoin',
      streamId: payload.streamId,
      stage: context.stage,
      ...(context.changes ? { duplicate: context.changes.length === 0 } : {}),
    });
  }

  function acceptEvm(body: unknown): WebhookResponse {
    let payload: EvmWebhook;
    try {
      payload = parseEvmWebhookWith(body, paths);
    } catch (error) {
      track(() => report(error, { kind: 'evm', phase: 'payload', payload: body }));
      // A payload the contract refuses is the sender's, and a retry would not fix it; a fault of
      // the parser's own is not, and a 200 would lose the delivery.
      return error instanceof ValidationError
        ? answer(200, 'accepted, but the payload did not parse; reported', UNREADABLE_EVM)
        : answer(500, 'could not read the payload', failure('receiver-failed', 'evm'));
    }
    if (onEvm) {
      later(async () => {
        try {
          await onEvm(payload);
        } catch (error) {
          publishCallbackFailure('evm', undefined, error);
          await report(error, { kind: 'evm', phase: 'callback', payload });
        }
      });
    }
    return answer(200, 'accepted', { outcome: 'accepted', kind: 'evm', streamId: payload.streamId });
  }

  /**
   * The order is the point: the signature header is looked at first, and the body is hashed as
   * received before anything parses it, so an anonymous sender can make the receiver parse at
   * most a small unsigned body (to recognise the verification POST), never a large one.
   * Answered at once where every step is synchronous (a raw body, node:crypto's keccak: every
   * delivery), so it costs no promise of its own; a promise where a step must wait (the first
   * hash-wasm load, a body parsed by the framework, the Bitcoin store).
   */
  function receive(request: WebhookRequest): WebhookResponse | Promise<WebhookResponse> {
    if (request.method !== undefined && request.method.toUpperCase() !== 'POST') {
      return answer(405, 'webhooks are delivered with POST', refusal('wrong-method'));
    }
    const signature = headerOf(request.headers, 'x-signature');
    const expected = signatureBytesOf(signature);
    const raw = request.rawBody ?? request.body;
    if (!expected) return unsignedReply(raw, signature);
    const received = receivedForm(raw);
    if (received === undefined) return receiveParsed(raw, signature);
    const verified = verifyRawDelivery(received, expected, secret);
    if (typeof verified !== 'boolean') {
      return verified.then((matches) => (matches ? acceptRaw(received) : mismatch(raw)));
    }
    return verified ? acceptRaw(received) : mismatch(raw);
  }

  /** A raw body whose signature matched: parsed, then taken. */
  function acceptRaw(received: string | Uint8Array): WebhookResponse | Promise<WebhookResponse> {
    const text = rawTextOf(received)!;
    if (isBlankText(text)) return answer(200, 'verification request', VERIFICATION);
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch (error) {
      if (!(error instanceof SyntaxError)) throw error;
      return answer(400, 'the body is not valid JSON', refusal('not-json'));
    }
    return accept(body);
  }

  /** A body parsed by the framework already (express.json()): only its serialization can be checked. */
  async function receiveParsed(body: unknown, signature: string | undefined): Promise<WebhookResponse> {
    if (!(await verifyDelivery(undefined, () => body, signature, secret))) {
      return answer(401, 'the x-signature does not match', refusal('bad-signature'));
    }
    return accept(body);
  }

  function accept(body: unknown): WebhookResponse | Promise<WebhookResponse> {
    if (isVerificationRequest(body)) return answer(200, 'verification request', VERIFICATION);
    return isBitcoinWebhook(body) ? acceptBitcoin(body) : acceptEvm(body);
  }

  /**
   * A failure of the receiver's own (it could not read the body, hash it or parse it): never a
   * 401, which would blame the sender's signature. 500, so the service delivers it again, and
   * `onError` (or the console) told why.
   */
  function failedToReceive(error: unknown): WebhookResponse {
    track(() => report(error, { kind: 'unknown', phase: 'receive', payload: undefined }));
    return answer(
      500,
      error instanceof KeccakFailure ? 'could not verify the signature here' : 'the receiver failed',
      failure('receiver-failed'),
    );
  }

  const receiveFailed = (error: unknown) => published(failedToReceive(error));
  // Not an async function awaiting `receive`: a delivery answered at once takes one promise, not
  // three and a turn of the microtask queue (a 1 KB delivery's intake is some 10 µs).
  const handler = ((request: WebhookRequest): Promise<WebhookResponse> => {
    try {
      const response = receive(request);
      if (response instanceof Promise) return response.then(published).catch(receiveFailed);
      return Promise.resolve(published(response));
    } catch (error) {
      // Never a throw to the caller: a failure here is a 500 answer, as a rejected step's is.
      return new Promise((resolve) => resolve(receiveFailed(error)));
    }
  }) as WebhookHandler;
  Object.defineProperty(handler, RECEIVE_FAILED, { value: failedToReceive });

  /** A raw body whose signature does not match: a signed but empty verification POST still passes. */
  function mismatch(raw: unknown): WebhookResponse {
    const blank = byteLengthOf(raw) === 0;
    return blank
      ? answer(200, 'verification request', VERIFICATION)
      : answer(401, 'the x-signature does not match', refusal('bad-signature'));
  }

  handler.idle = async () => {
    while (running.size > 0) await Promise.allSettled([...running]);
  };
  handler.close = async () => {
    closed = true;
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    await handler.idle();
  };
  handler.node = toNodeListener(handler);
  handler.fetch = toFetchHandler(handler);
  return handler;
}

/** Where a handler made by `createWebhookHandler` takes a failure to read a request (reported, 500). */
const RECEIVE_FAILED = Symbol('blockwire.receiveFailed');

/** The answer to a request whose body could not be read: the handler's own report, else the console. */
function readFailure(handler: object, error: unknown): WebhookResponse {
  const own = (handler as { [RECEIVE_FAILED]?: (error: unknown) => WebhookResponse })[RECEIVE_FAILED];
  if (own) return published(own(error));
  logFailure('[@blockwire/streams] webhook request could not be read', error);
  return published(answer(500, 'the receiver failed', failure('receiver-failed')));
}

const contextOf = (accepted: AcceptedDelivery): BitcoinDeliveryContext => ({
  stage: accepted.stage,
  changes: accepted.changes,
  deliveryId: accepted.deliveryId,
});

const isThenable = (value: unknown): value is PromiseLike<unknown> =>
  (typeof value === 'object' || typeof value === 'function') &&
  value !== null &&
  typeof (value as { then?: unknown }).then === 'function';

/** The last resort: the console, which must not throw either. */
function logFailure(...parts: unknown[]): void {
  try {
    console.error(...parts);
  } catch {
    // Nowhere left to say it.
  }
}

/** A body past the limit: of a signed request (413, the connection closes) or an unsigned one (401). */
class BodyTooLargeError extends Error {
  constructor(readonly signed: boolean) {
    super('body too large');
  }
}

/**
 * How much of a body may be read: up to `maxBytes` when the request is signed,
 * `UNSIGNED_BODY_LIMIT` otherwise. Which one applies is asked only of a body longer than the
 * smaller of the two, which a usual delivery is not: the handler looks at the signature anyway, and
 * looking at it here too, before every body, cost a 1 KB delivery over HTTP about 2.5 % more CPU.
 */
function bodyLimit(headers: HeaderBag, maxBytes: number) {
  let limit = Math.min(maxBytes, UNSIGNED_BODY_LIMIT);
  let signed: boolean | undefined;
  return {
    allows(size: number): boolean {
      if (size <= limit) return true;
      if (signed === undefined) {
        signed = signatureBytesOf(headerOf(headers, 'x-signature')) !== undefined;
        limit = signed ? maxBytes : UNSIGNED_BODY_LIMIT;
      }
      return size <= limit;
    },
    /** The error for a body past the limit; only asked once `allows` said no. */
    tooLarge: () => new BodyTooLargeError(signed === true),
  };
}

/** A declared Content-Length, or `undefined` when there is none (chunked) or it is no number. */
function declaredLength(value: string | null | undefined): number | undefined {
  const length = Number(value ?? Number.NaN);
  return Number.isFinite(length) ? length : undefined;
}

/**
 * Discards the rest of a refused body as it arrives, held nowhere, so the client can read the
 * answer (dropped at once, a client still sending may never see it); past the default cap, or
 * `maxBytes` where larger (a body that never ends), the request is dropped.
 */
function discard(req: NodeIncomingMessage, maxBytes: number): void {
  const bound = Math.max(maxBytes, DEFAULT_MAX_BODY_BYTES);
  let drained = 0;
  const onDrain = (chunk: Uint8Array) => {
    drained += chunk.length;
    if (drained <= bound) return;
    req.off('data', onDrain);
    req.destroy?.();
  };
  req.on('data', onDrain);
  req.resume();
}

/** Reads a Node request's body within `bodyLimit`. */
function readBody(req: NodeIncomingMessage, maxBytes: number): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const limit = bodyLimit(req.headers, maxBytes);
    const declared = declaredLength(req.headers['content-length'] as string | undefined);
    if (declared !== undefined && !limit.allows(declared)) {
      discard(req, maxBytes);
      return reject(limit.tooLarge());
    }
    const chunks: Uint8Array[] = [];
    let size = 0;
    const onData = (chunk: Uint8Array) => {
      size += chunk.length;
      if (limit.allows(size)) return void chunks.push(chunk);
      req.off('data', onData);
      discard(req, maxBytes);
      reject(limit.tooLarge());
    };
    req.on('data', onData);
    // One chunk (a 1 KB delivery comes in one) is the body itself: nothing to copy.
    req.once('end', () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size)));
    req.once('error', reject);
  });
}

/**
 * Reads a Fetch request's body as a stream within `bodyLimit`, as `readBody` does: a declared
 * length past the limit is refused before a byte is read, and a body (of unknown length) that goes
 * past it is cancelled there.
 */
async function readFetchBody(request: Request, maxBytes: number): Promise<Uint8Array> {
  const limit = bodyLimit(request.headers, maxBytes);
  const declared = declaredLength(request.headers.get('content-length'));
  if (declared !== undefined && !limit.allows(declared)) {
    request.body?.cancel().catch(() => undefined);
    throw limit.tooLarge();
  }
  if (!request.body) return new Uint8Array();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (!limit.allows(size)) {
      reader.cancel().catch(() => undefined);
      throw limit.tooLarge();
    }
    chunks.push(value);
  }
  if (chunks.length === 1) return chunks[0]!;
  const body = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    body.set(chunk, at);
    at += chunk.length;
  }
  return body;
}

/** A body past the limit: signed, 413; unsigned, the 401 of an unsigned request. */
function tooLargeReply(
  error: BodyTooLargeError,
  maxBodyBytes: number,
  signature: string | undefined,
): WebhookResponse {
  return published(
    error.signed
      ? answer(413, `the body is larger than ${maxBodyBytes} bytes`, refusal('too-large'))
      : unsigned(signature),
  );
}

/** The cap of a listener's options, checked: a positive whole number of bytes. */
function maxBodyBytesOf(options: NodeListenerOptions, subject: string): number {
  checkOptionsObject(options, {
    subject,
    kind: 'option',
    names: ['maxBodyBytes'] satisfies (keyof NodeListenerOptions)[],
    example: '{ maxBodyBytes: 33554432 }',
  });
  const { maxBodyBytes = DEFAULT_MAX_BODY_BYTES } = options;
  if (!Number.isSafeInteger(maxBodyBytes) || maxBodyBytes <= 0) {
    throw new ValidationError(
      [{ path: 'maxBodyBytes', message: 'must be a positive whole number of bytes' }],
      {
        subject,
      },
    );
  }
  return maxBodyBytes;
}

/**
 * Turns a webhook handler into a `(req, res)` listener for `node:http` and Express. With Express,
 * a body already read by `express.json()`, `express.raw()` or `express.text()` is used as is;
 * otherwise the request body is read once, here.
 */
export function toNodeListener(
  handler: (request: WebhookRequest) => Promise<WebhookResponse>,
  options: NodeListenerOptions = {},
): NodeListener {
  const maxBodyBytes = maxBodyBytesOf(options, 'toNodeListener options');
  // The listener never rejects: node:http and Express ignore the promise, so a rejection would be
  // unhandled and end the process.
  return async (req, res) => {
    let response: WebhookResponse;
    let tooLarge: BodyTooLargeError | undefined;
    try {
      // Unsigned, only a verification POST can be accepted: no more is read than one can be.
      const read =
        req.rawBody === undefined && req.body === undefined ? await readBody(req, maxBodyBytes) : undefined;
      response = await handler({
        method: req.method,
        headers: req.headers,
        body: req.body,
        rawBody: req.rawBody ?? read,
      });
    } catch (error) {
      tooLarge = error instanceof BodyTooLargeError ? error : undefined;
      response = tooLarge
        ? tooLargeReply(tooLarge, maxBodyBytes, headerOf(req.headers, 'x-signature'))
        : readFailure(handler, error);
    }
    try {
      res.statusCode = response.status;
      // Too large but signed: the connection goes, rather than read megabytes for nothing. An
      // unsigned body is refused at once and drained as it arrives (held nowhere): closing on a
      // client still sending would reset the connection, and the client might never see the 401.
      if (tooLarge?.signed) res.setHeader('connection', 'close');
      res.setHeader('content-type', 'application/json; charset=utf-8');
      res.end(JSON.stringify(response.body));
    } catch {
      // The answer cannot be written (headers already sent, socket gone): drop the connection.
      try {
        res.destroy();
      } catch {
        // Already gone.
      }
    }
  };
}

/**
 * Turns a webhook handler into a Fetch-API handler, `Request → Response`, for Workers, Deno, Bun,
 * Hono, a Next.js route handler. The body is read here, as a stream, with the Node listener's
 * protections: at most `UNSIGNED_BODY_LIMIT` of a request without a well-formed `x-signature`
 * (401 past it, unread), at most `maxBodyBytes` of a signed one (413). Never rejects.
 */
export function toFetchHandler(
  handler: (request: WebhookRequest) => Promise<WebhookResponse>,
  options: FetchHandlerOptions = {},
): FetchHandler {
  const maxBodyBytes = maxBodyBytesOf(options, 'toFetchHandler options');
  return async (request) => {
    let response: WebhookResponse;
    try {
      const rawBody = await readFetchBody(request, maxBodyBytes);
      response = await handler({ method: request.method, headers: request.headers, rawBody });
    } catch (error) {
      response =
        error instanceof BodyTooLargeError
          ? tooLargeReply(error, maxBodyBytes, headerOf(request.headers, 'x-signature'))
          : readFailure(handler, error);
    }
    return new Response(JSON.stringify(response.body), {
      status: response.status,
      headers: { 'content-type': 'application/json; charset=utf-8' },
    });
  };
}
