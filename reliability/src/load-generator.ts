/**
 * A bounded load from its own process: `connections` loops on loopback, each sending one request
 * after another to `url` until `seconds` pass or `requests` were sent. Prints one JSON line:
 * requests, non-2xx, per-second counts and latency percentiles.
 *
 * With `distinct`, every request carries its own body: each `placeholder` in `body` becomes the
 * request's number as 64 hex digits (a new txid each time), signed with `secret` as the service
 * signs deliveries, so the receiver's working set grows for the whole run.
 *
 *   node load-generator.ts '<json: { url, method, headers, body, distinct?, connections, seconds, requests }>'
 */
import { signBody } from '@blockwire/streams';
import { Agent, request } from 'undici';

const plan = JSON.parse(process.argv[2] ?? '{}') as {
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
  distinct?: { placeholder: string; secret: string };
  connections: number;
  seconds: number;
  requests: number;
};
const agent = new Agent({ connections: plan.connections });
const latencies: number[] = [];
const perSecond: number[] = [];
let sent = 0;
let failed = 0;
const started = performance.now();
const deadline = started + plan.seconds * 1000;
process.stdout.write(`${JSON.stringify({ started: true })}\n`);

/** The headers and body of request number `n`. */
async function requestNumber(n: number): Promise<{ headers: Record<string, string>; body?: string }> {
  if (!plan.distinct || plan.body === undefined) return { headers: plan.headers, body: plan.body };
  const body = plan.body.replaceAll(plan.distinct.placeholder, n.toString(16).padStart(64, '0'));
  return { headers: { ...plan.headers, 'x-signature': await signBody(body, plan.distinct.secret) }, body };
}

async function loop(): Promise<void> {
  while (performance.now() < deadline && sent < plan.requests) {
    const { headers, body } = await requestNumber(++sent);
    const at = performance.now();
    try {
      const response = await request(plan.url, { method: plan.method, headers, body, dispatcher: agent });
      await response.body.dump();
      if (response.statusCode < 200 || response.statusCode > 299) failed++;
    } catch {
      failed++;
    }
    const done = performance.now();
    latencies.push(done - at);
    const second = Math.floor((done - started) / 1000);
    perSecond[second] = (perSecond[second] ?? 0) + 1;
  }
}

await Promise.all(Array.from({ length: plan.connections }, loop));
await agent.close();
latencies.sort((a, b) => a - b);
const at = (q: number) =>
  Number((latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0).toFixed(2));
process.stdout.write(
  `${JSON.stringify({
    requests: latencies.length,
    failed,
    seconds: Number(((performance.now() - started) / 1000).toFixed(2)),
    perSecond: Array.from(perSecond, (count) => count ?? 0),
    p50: at(0.5),
    p99: at(0.99),
    max: at(1),
  })}\n`,
);
