import { Agent, request as undiciRequest } from 'undici';

export interface TransportRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
  /** Aborts the request: the caller's signal combined with the per-attempt timeout. */
  signal: AbortSignal;
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

/** The default transport: undici with a keep-alive connection pool per origin. */
export function createUndiciTransport(
  options: UndiciTransportOptions = {},
): Transport & { close(): Promise<void> } {
  let agent: Agent | undefined;
  const transport = async (req: TransportRequest): Promise<TransportResponse> => {
    agent ??= new Agent({
      connections: options.connections ?? 32,
      keepAliveTimeout: options.keepAliveTimeoutMs ?? 10_000,
      // The client enforces its own per-attempt timeout through the signal.
      headersTimeout: 0,
      bodyTimeout: 0,
    });
    const response = await undiciRequest(req.url, {
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
    return { status: response.statusCode, headers, body: await response.body.text() };
  };
  return Object.assign(transport, {
    async close() {
      const current = agent;
      agent = undefined;
      await current?.close();
    },
  });
}
