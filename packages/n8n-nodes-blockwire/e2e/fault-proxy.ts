/* eslint-disable @n8n/community-nodes/no-restricted-imports --
   Test harness: runs in the test process; none of it ships (package.json#files is dist). */
/**
 * An HTTP proxy in front of n8n's webhooks that loses a share of the deliveries, the two ways a
 * real network does: before n8n sees the request (the sender gets 503 and retries), and after n8n
 * handled it (n8n ran the workflow, but its 200 never reaches the sender, which gets 502 and
 * delivers the same payload again). The second kind is what the trigger's repeat store is for.
 * Faults are spread evenly, not drawn at random — one request in `1 / rate`, the two kinds taking
 * turns — so every run of a test sees both kinds, in the same places.
 */
import { createServer, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Fault = 'lost-request' | 'lost-answer';

export interface ProxiedRequest {
  method: string;
  path: string;
  bodyBytes: number;
  /** The request body as text (what the sender posted). */
  body: string;
  /** What the sender got. */
  status: number;
  /** What n8n answered, when the request reached it. */
  upstreamStatus?: number;
  fault?: Fault;
}

export interface FaultProxy {
  /** Base URL to give n8n as WEBHOOK_URL (ends with `/`). */
  readonly url: string;
  readonly log: ProxiedRequest[];
  /** Share (0..1) of requests to lose, half of them each way (0 = none). */
  setFaultRate(rate: number): void;
  close(): Promise<void>;
}

export async function startFaultProxy(target: () => string): Promise<FaultProxy> {
  let faultRate = 0;
  let sinceFault = 0;
  let faults = 0;
  const log: ProxiedRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const entry: ProxiedRequest = {
        method: req.method ?? 'GET',
        path: req.url ?? '/',
        bodyBytes: body.length,
        body: body.toString('utf8'),
        status: 0,
      };
      log.push(entry);
      let fault: Fault | undefined;
      if (faultRate > 0 && ++sinceFault >= Math.round(1 / faultRate)) {
        sinceFault = 0;
        fault = faults++ % 2 === 0 ? 'lost-answer' : 'lost-request';
      }
      if (fault) entry.fault = fault;
      if (fault === 'lost-request') {
        entry.status = 503;
        res.writeHead(503).end();
        return;
      }
      forward(target(), req.method ?? 'GET', req.url ?? '/', req.headers, body)
        .then(({ status, headers, body: answer }) => {
          entry.upstreamStatus = status;
          entry.status = fault === 'lost-answer' ? 502 : status;
          if (fault === 'lost-answer') res.writeHead(502).end();
          else res.writeHead(status, headers).end(answer);
        })
        .catch(() => {
          entry.status = 502;
          res.writeHead(502).end();
        });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    log,
    setFaultRate(rate: number) {
      faultRate = rate;
      sinceFault = 0;
    },
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

function forward(
  base: string,
  method: string,
  path: string,
  headers: IncomingHttpHeaders,
  body: Buffer,
): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const upstream = httpRequest(
      new URL(path, base),
      { method, headers: { ...headers, host: new URL(base).host, 'content-length': String(body.length) } },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const headers = { ...response.headers };
          delete headers['transfer-encoding'];
          delete headers.connection;
          resolve({ status: response.statusCode ?? 502, headers, body: Buffer.concat(chunks) });
        });
        response.on('error', reject);
      },
    );
    upstream.on('error', reject);
    upstream.end(body);
  });
}
