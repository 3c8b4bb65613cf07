import type { AttemptSlot } from './adaptive-concurrency.js';
import type { Route } from './client-routes.js';
import type { Api, ClientRequest, ClientResponse } from './client-types.js';
import type { BlockwireError } from './errors.js';
import type { ClientHooks } from './hooks.js';
import { encodeQuery } from './query.js';

/** What a call's 2xx answer is given to before its promise settles (an operation checks its data). */
export type AnswerMap = (response: ClientResponse, req: ClientRequest) => unknown;

/** What a watched call (diagnostics.ts) is told of each attempt, beside the client's hooks. */
export interface AttemptObserver {
  readonly callId: number;
  attemptStarted(attempt: number): void;
  answered(status: number): void;
  retrying(error: BlockwireError, delayMs: number): void;
}

/**
 * One call, worked out once and carried through each of its attempts: where it goes, what it
 * sends, and where its attempts stand. The attempt loop (attempt-loop.ts) takes this one object
 * at every step, never the pieces one by one.
 */
export class PreparedRequest {
  readonly req: ClientRequest;
  readonly route: Route;
  /** `path` + key + query: below the base URL. */
  readonly target: string;
  readonly headers: Readonly<Record<string, string>>;
  /** What this attempt sends: `headers`, with what an `addHeaders` hook added. */
  sentHeaders: Readonly<Record<string, string>>;
  /** The client's hooks. */
  readonly hooks: ClientHooks;
  /** Set when the call is watched: it records each attempt for the call's end. */
  observer: AttemptObserver | undefined = undefined;
  /** The body as JSON text, when the request has one. */
  readonly body: string | undefined;
  readonly map: AnswerMap | undefined;
  /** The attempt being made, 1 for the first. */
  attempt = 1;
  /** When the attempt began (`performance.now()`), with hooks only. */
  started = 0;
  /** The shared slot the attempt holds, if the request shares slots. */
  slot: AttemptSlot | undefined = undefined;
  /** Sent again at once after a 429 (see attempt-loop.ts): the next one is waited out. */
  sentAgainAtOnce = false;

  constructor(
    routes: Readonly<Record<Api, Route>>,
    req: ClientRequest,
    map: AnswerMap | undefined,
    hooks: ClientHooks,
  ) {
    const route = routes[req.api];
    const body = req.body === undefined ? undefined : JSON.stringify(req.body);
    this.req = req;
    this.route = route;
    this.target = `${req.path}${route.keyPath}${encodeQuery(req.query)}`;
    this.headers = body === undefined ? route.headers : route.jsonHeaders;
    this.sentHeaders = this.headers;
    this.hooks = hooks;
    this.body = body;
    this.map = map;
  }
}
