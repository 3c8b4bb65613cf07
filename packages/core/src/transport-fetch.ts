/**
 * The default transport where there is `fetch` but no Node.js (edge runtimes, browsers, Deno,
 * Bun): the platform's own HTTP client, so nothing of undici is bundled. Redirects are not
 * followed (the key header would go with them), like the undici transport.
 */
import { ResponseTooLargeError } from './errors.js';
import {
  type AttemptHandle,
  DIRECT,
  type DirectRequest,
  type DirectTransport,
  sendThroughDirect,
  type TransportResponse,
} from './transport.js';

export interface FetchTransportOptions {
  /** The `fetch` to use. Default: the global one. */
  fetch?: typeof fetch;
}

export function createFetchTransport(options: FetchTransportOptions = {}): DirectTransport & {
  close(): Promise<void>;
} {
  const direct = (request: DirectRequest, attempt: AttemptHandle): void => {
    const fetchFunction = options.fetch ?? globalThis.fetch;
    if (typeof fetchFunction !== 'function') {
      throw new TypeError('This runtime has no fetch: pass a transport of your own to createClient');
    }
    const controller = new AbortController();
    attempt.onCancel = (reason) => controller.abort(reason);
    fetchFunction(`${request.origin}${request.path}`, {
      method: request.method,
      headers: request.headers,
      body: request.body ?? null,
      signal: controller.signal,
      redirect: 'manual',
    })
      .then((response) => readResponse(response, request.maxResponseBytes, controller))
      .then(
        (response) => attempt.resolve(response),
        (error: unknown) => attempt.reject(error),
      );
  };
  const transport = (request: Parameters<DirectTransport>[0]) => sendThroughDirect(direct, request);
  return Object.assign(transport, { [DIRECT]: direct, close: async () => {} });
}

async function readResponse(
  response: Response,
  limit: number,
  controller: AbortController,
): Promise<TransportResponse> {
  if (response.type === 'opaqueredirect') {
    throw new Error(
      'The service answered with a redirect, which is not followed (the API key would go along)',
    );
  }
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  const tooLarge = () => {
    controller.abort(new Error('response too large'));
    return new ResponseTooLargeError(limit, { status: response.status });
  };
  if (Number(headers['content-length']) > limit) throw tooLarge();
  if (!response.body) return { status: response.status, headers, body: '' };
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let size = 0;
  let body = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      void reader.cancel().catch(() => {});
      throw tooLarge();
    }
    body += decoder.decode(value, { stream: true });
  }
  return { status: response.status, headers, body: body + decoder.decode() };
}
