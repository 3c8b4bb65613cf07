import type { Agent } from 'undici';
import { ResponseTooLargeError } from './errors.js';

export interface TransportRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
  /** Aborts the request: the caller's signal combined with the per-attempt timeout. */
  signal: AbortSignal;
  /**
   * Stop reading a body longer than this many bytes, close the connection and throw a
   * `ResponseTooLargeError` (the client checks the length too, after a transport that does not).
   */
  maxResponseBytes?: number;
}

export interface TransportResponse {
  status: number;
  /** Header names in lower case. */
  headers: Record<string, string | undefined>;
  /** The raw body text ('' when empty). */
  body: string;
}

/**
 * Sends one HTTP request. Throw on a failure to send or read (with a Node-style `code` such as
 * `ECONNREFUSED` where known); resolve with any status otherwise: the client maps statuses.
 */
export type Transport = (request: TransportRequest) => Promise<TransportResponse>;

export interface UndiciTransportOptions {
  /** Sockets kept open per origin. */
  connections?: number;
  keepAliveTimeoutMs?: number;
}

let undiciModule: Promise<typeof import('undici')> | undefined;

/** The default transport: undici with a keep-alive connection pool per origin. */
export function createUndiciTransport(
  options: UndiciTransportOptions = {},
): Transport & { close(): Promise<void> } {
  let agent: Agent | undefined;
  const transport = async (req: TransportRequest): Promise<TransportResponse> => {
    // Loaded on first use, not at import: importing undici on an unsupported Node crashes before
    // the package's own version check could say why (and a custom transport never needs it).
    undiciModule ??= import('undici');
    const undici = await undiciModule;
    agent ??= new undici.Agent({
      connections: options.connections ?? 32,
      keepAliveTimeout: options.keepAliveTimeoutMs ?? 10_000,
      // The client enforces its own per-attempt timeout through the signal.
      headersTimeout: 0,
      bodyTimeout: 0,
    });
    const response = await undici.request(req.url, {
      method: req.method as 'GET',
      headers: req.headers,
      body: req.body,
      signal: req.signal,
      dispatcher: agent,
    });
    const headers: Record<string, string | undefined> = {};
    for (const [name, value] of Object.entries(response.headers)) {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
    }
    const body = await readLimited(response.body, response.statusCode, headers, req.maxResponseBytes);
    return { status: response.statusCode, headers, body };
  };
  return Object.assign(transport, {
    async close() {
      const current = agent;
      agent = undefined;
      await current?.close();
    },
  });
}

/**
 * Reads a body as UTF-8 text, at most `limit` bytes: past that (or when Content-Length already
 * says so) the stream is destroyed, which closes the connection, and a `ResponseTooLargeError`
 * is thrown. Memory stays bounded by the limit whatever the server sends.
 */
async function readLimited(
  body: AsyncIterable<Uint8Array> & { destroy(): unknown; on(event: 'error', listener: () => void): unknown },
  status: number,
  headers: Record<string, string | undefined>,
  limit = Number.POSITIVE_INFINITY,
): Promise<string> {
  const tooLarge = () => {
    // undici emits an 'error' event (RequestAbortedError) when a body is destroyed before its end,
    // even without an error given; unread, nobody would listen to it and the process would die.
    body.on('error', ignoreError);
    body.destroy();
    return new ResponseTooLargeError(limit, { status });
  };
  if (Number(headers['content-length']) > limit) throw tooLarge();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of body) {
    total += chunk.byteLength;
    if (total > limit) throw tooLarge();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, total).toString('utf8');
}

function ignoreError(): void {}
