/**
 * The default transport on Node.js: undici's dispatcher, driven directly. The answer is read
 * into a few Buffers by a small handler — no stream, no AbortController, no header copy — and
 * a body past the size limit is cut off where it is read.
 */
import { createBrotliDecompress, createGunzip, createInflate, createInflateRaw } from 'node:zlib';
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
    // The direct request is undici's options as they are (origin, path, method, headers, body;
    // undici reads nothing else of it, and an undefined body is none): no copy made per call.
    agent.dispatch(request as DirectRequest & Dispatcher.DispatchOptions, handler);
  } catch (error) {
    handler.onResponseError(null, error as Error);
  }
}

/**
 * Collects one answer. Past `limit` bytes (or a Content-Length that says so) the request is
 * aborted, which closes the connection: memory stays bounded whatever the server sends. A body
 * the server compressed (gzip, deflate, br) is decoded as it arrives, as fetch does, and the limit
 * counts decoded bytes: a small compressed bomb stops at the limit, not after inflating it all.
 */
class BodyReader implements Dispatcher.DispatchHandler {
  #attempt: AttemptHandle;
  #limit: number;
  #controller: Dispatcher.DispatchController | undefined;
  #cancelled: { reason: unknown } | undefined;
  #status = 0;
  // Set when the answer starts: no object made for nothing on every call.
  #headers: Record<string, string | string[] | undefined> | undefined;
  #chunks: Buffer[] = [];
  #size = 0;
  #done = false;
  #decoder: Decoder | undefined;

  constructor(attempt: AttemptHandle, limit: number) {
    this.#attempt = attempt;
    this.#limit = limit;
    // A bound method, not an arrow function made here: with the arrow, calls' objects outlived
    // young-generation collections (60,000 requests at concurrency 32: 179 MB of 452 MB allocated
    // survived a scavenge; bound, 11 MB of 827 MB over 100,000), V8 grew its young generation to
    // the maximum, and a process that had made 100,000 calls held twice the memory it needed.
    attempt.onCancel = this.#cancel.bind(this);
  }

  #cancel(reason: unknown): void {
    this.#done = true;
    this.#cancelled = { reason };
    this.#decoder?.destroy();
    // Still queued for a connection: aborted as soon as it gets one.
    this.#controller?.abort(reason as Error);
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
    if (Number(headers['content-length']) > this.#limit) {
      this.#tooLarge(controller);
      return;
    }
    const coding = contentCodingOf(headers['content-encoding']);
    if (coding === undefined) return;
    if (coding === 'unsupported') {
      const encoding = String(headers['content-encoding']);
      this.#fail(
        controller,
        new Error(`The answer is encoded as ${encoding}, which this client cannot decode`),
      );
      return;
    }
    this.#decoder = decoderFor(coding, {
      data: (chunk) => this.#take(controller, chunk),
      end: () => this.#finish(),
      error: (error) =>
        this.#fail(controller, new Error(`The compressed answer could not be decoded: ${error.message}`)),
    });
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.#done) return;
    if (this.#decoder) this.#decoder.write(chunk);
    else this.#take(controller, chunk);
  }

  onResponseEnd(): void {
    if (this.#done) return;
    if (this.#decoder) this.#decoder.end();
    else this.#finish();
  }

  onResponseError(_controller: Dispatcher.DispatchController | null, error: Error): void {
    if (this.#done) return;
    this.#done = true;
    this.#decoder?.destroy();
    this.#attempt.reject(error);
  }

  #take(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.#done) return;
    this.#size += chunk.length;
    if (this.#size > this.#limit) this.#tooLarge(controller);
    else this.#chunks.push(chunk);
  }

  #finish(): void {
    if (this.#done) return;
    this.#done = true;
    const chunks = this.#chunks;
    const body =
      chunks.length === 0
        ? ''
        : chunks.length === 1
          ? chunks[0]!.toString('utf8')
          : Buffer.concat(chunks, this.#size).toString('utf8');
    this.#attempt.resolve({ status: this.#status, headers: joinRepeated(this.#headers ?? {}), body });
  }

  #tooLarge(controller: Dispatcher.DispatchController): void {
    this.#fail(
      controller,
      new ResponseTooLargeError(this.#limit, { status: this.#status }),
      'response too large',
    );
  }

  #fail(controller: Dispatcher.DispatchController, error: Error, abortReason = error.message): void {
    if (this.#done) return;
    this.#done = true;
    this.#chunks = [];
    this.#decoder?.destroy();
    this.#attempt.reject(error);
    controller.abort(new Error(abortReason));
  }
}

type Coding = 'gzip' | 'deflate' | 'br';

/** The one content coding of an answer; `undefined` for none, 'unsupported' for any other. */
function contentCodingOf(header: string | string[] | undefined): Coding | 'unsupported' | undefined {
  if (header === undefined) return undefined;
  const coding = (Array.isArray(header) ? header.join(',') : header).trim().toLowerCase();
  if (coding === '' || coding === 'identity') return undefined;
  if (coding === 'gzip' || coding === 'x-gzip') return 'gzip';
  if (coding === 'deflate' || coding === 'br') return coding;
  return 'unsupported';
}

interface Decoder {
  write(chunk: Buffer): void;
  end(): void;
  destroy(): void;
}

/**
 * A streaming zlib decoder. `deflate` is zlib-wrapped by the standard but raw from some servers:
 * the first byte tells which (as fetch does).
 */
function decoderFor(
  coding: Coding,
  on: { data(chunk: Buffer): void; end(): void; error(error: Error): void },
): Decoder {
  let stream: ReturnType<typeof createGunzip> | undefined;
  const open = (first: Buffer) => {
    stream =
      coding === 'gzip'
        ? createGunzip()
        : coding === 'br'
          ? createBrotliDecompress()
          : (first[0]! & 0x0f) === 0x08
            ? createInflate()
            : createInflateRaw();
    stream.on('data', on.data);
    stream.once('end', on.end);
    stream.once('error', on.error);
    return stream;
  };
  return {
    write: (chunk) => void (stream ?? open(chunk)).write(chunk),
    end: () => (stream ? stream.end() : on.end()),
    destroy: () => stream?.destroy(),
  };
}

/** undici gives a repeated header as a list; the transport's answer has one string per name. */
function joinRepeated(headers: Record<string, string | string[] | undefined>): TransportResponse['headers'] {
  for (const name in headers) {
    const value = headers[name];
    if (Array.isArray(value)) headers[name] = value.join(', ');
  }
  return headers as TransportResponse['headers'];
}
