/**
 * The default transport on Node.js: undici's dispatcher, driven directly. The answer is read
 * into a few Buffers by a small handler — no stream, no AbortController, no header copy — and
 * a body past the size limit is cut off where it is read.
 */
import type { Agent, Dispatcher } from 'undici';
import { ResponseTooLargeError } from './errors.js';
import {
  type AttemptHandle,
  DIRECT,
  type DirectRequest,
  type DirectTransport,
  sendThroughDirect,
  type TransportResponse,
} from './transport.js';

export interface UndiciTransportOptions {
  /** Sockets kept open per origin. */
  connections?: number;
  keepAliveTimeoutMs?: number;
}

let agentClass: Promise<typeof Agent> | undefined;

/**
 * undici's Agent alone: its module and what it needs, not undici's index, which brings fetch,
 * WebSocket, caches and mocks too (a bundle for Node.js carries a third of undici this way).
 * Loaded on first use, not at import: importing undici on an unsupported Node crashes before the
 * package's own version check could say why (and a custom transport never needs it). The path is
 * undici's own file; undici.test.ts checks it is the class undici exports.
 */
export function loadAgentClass(): Promise<typeof Agent> {
  agentClass ??= import('undici/lib/dispatcher/agent.js').then(
    (module: { default: typeof Agent }) => module.default,
  );
  return agentClass;
}

/** The default transport on Node.js: undici with a keep-alive connection pool per origin. */
export function createUndiciTransport(options: UndiciTransportOptions = {}): DirectTransport & {
  close(): Promise<void>;
} {
  let agent: Agent | undefined;
  let starting: Promise<Agent> | undefined;

  function start(): Promise<Agent> {
    starting ??= loadAgentClass().then((AgentClass) => {
      agent ??= new AgentClass({
        connections: options.connections ?? 32,
        keepAliveTimeout: options.keepAliveTimeoutMs ?? 10_000,
        // The client enforces its own per-attempt timeout.
        headersTimeout: 0,
        bodyTimeout: 0,
      });
      return agent;
    });
    return starting;
  }

  function direct(request: DirectRequest, attempt: AttemptHandle): void {
    if (agent) dispatch(agent, request, attempt);
    else {
      start().then(
        (started) => dispatch(started, request, attempt),
        (error: unknown) => attempt.reject(error),
      );
    }
  }

  const transport = (request: Parameters<DirectTransport>[0]) => sendThroughDirect(direct, request);
  return Object.assign(transport, {
    [DIRECT]: direct,
    async close() {
      const current = agent;
      agent = undefined;
      starting = undefined;
      await current?.close();
    },
  });
}

function dispatch(agent: Agent, request: DirectRequest, attempt: AttemptHandle): void {
  const handler = new BodyReader(attempt, request.maxResponseBytes);
  try {
    agent.dispatch(
      {
        origin: request.origin,
        path: request.path,
        method: request.method as Dispatcher.HttpMethod,
        headers: request.headers,
        body: request.body ?? null,
      },
      handler,
    );
  } catch (error) {
    handler.onResponseError(null, error as Error);
  }
}

/**
 * Collects one answer. Past `limit` bytes (or a Content-Length that says so) the request is
 * aborted, which closes the connection: memory stays bounded whatever the server sends.
 */
class BodyReader implements Dispatcher.DispatchHandler {
  #attempt: AttemptHandle;
  #limit: number;
  #controller: Dispatcher.DispatchController | undefined;
  #cancelled: { reason: unknown } | undefined;
  #status = 0;
  #headers: Record<string, string | string[] | undefined> = {};
  #chunks: Buffer[] = [];
  #size = 0;
  #done = false;

  constructor(attempt: AttemptHandle, limit: number) {
    this.#attempt = attempt;
    this.#limit = limit;
    attempt.onCancel = (reason) => {
      this.#done = true;
      this.#cancelled = { reason };
      // Still queued for a connection: aborted as soon as it gets one.
      this.#controller?.abort(reason as Error);
    };
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.#controller = controller;
    if (this.#cancelled) controller.abort(this.#cancelled.reason as Error);
  }

  onResponseStart(
    controller: Dispatcher.DispatchController,
    status: number,
    headers: Record<string, string | string[] | undefined>,
  ): void {
    // 1xx informational answers come before the real one.
    if (status < 200) return;
    this.#status = status;
    this.#headers = headers;
    if (Number(headers['content-length']) > this.#limit) this.#tooLarge(controller);
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.#size += chunk.length;
    if (this.#size > this.#limit) this.#tooLarge(controller);
    else this.#chunks.push(chunk);
  }

  onResponseEnd(): void {
    if (this.#done) return;
    this.#done = true;
    const chunks = this.#chunks;
    const body =
      chunks.length === 0
        ? ''
        : chunks.length === 1
          ? chunks[0]!.toString('utf8')
          : Buffer.concat(chunks, this.#size).toString('utf8');
    this.#attempt.resolve({ status: this.#status, headers: joinRepeated(this.#headers), body });
  }

  onResponseError(_controller: Dispatcher.DispatchController | null, error: Error): void {
    if (this.#done) return;
    this.#done = true;
    this.#attempt.reject(error);
  }

  #tooLarge(controller: Dispatcher.DispatchController): void {
    if (this.#done) return;
    this.#done = true;
    this.#chunks = [];
    this.#attempt.reject(new ResponseTooLargeError(this.#limit, { status: this.#status }));
    controller.abort(new Error('response too large'));
  }
}

/** undici gives a repeated header as a list; the transport's answer has one string per name. */
function joinRepeated(headers: Record<string, string | string[] | undefined>): TransportResponse['headers'] {
  for (const name in headers) {
    const value = headers[name];
    if (Array.isArray(value)) headers[name] = value.join(', ');
  }
  return headers as TransportResponse['headers'];
}
