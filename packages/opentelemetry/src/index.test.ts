/** Spans and metrics of real calls against the emulator, faults on, with the SDK's in-memory exporters. */
import { createClient } from '@blockwire/core';
import { startEmulator } from '@blockwire/emulator';
import { getEvmTokenPrice } from '@blockwire/prices';
import { context, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import {
  AggregationTemporality,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
} from '@opentelemetry/sdk-metrics';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { afterAll, expect, it } from 'vitest';
import { instrumentBlockwire } from './index.js';

const WETH = '0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2';
const emu = await startEmulator({ anvil: false });
context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
propagation.setGlobalPropagator(new W3CTraceContextPropagator());
const spans = new InMemorySpanExporter();
const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] });
const metricExporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
const reader = new PeriodicExportingMetricReader({ exporter: metricExporter, exportIntervalMillis: 60_000 });
const meterProvider = new MeterProvider({ readers: [reader] });
const instrumentation = instrumentBlockwire({ tracerProvider, meterProvider });
const client = createClient({
  apiKey: emu.apiKey,
  baseUrls: emu.urls,
  retry: { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 5 },
  hooks: instrumentation.hooks,
});

afterAll(async () => {
  instrumentation.disable();
  await client.close();
  await emu.close();
  await meterProvider.shutdown();
});

it('a call retried after 429s: one call span, a CLIENT span per attempt, metrics, the trace context at the service', async () => {
  await fetch(`${emu.control}/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ interface: 'evm', rate: 1, statuses: [429], retryAfterSeconds: 0 }),
  });
  const parent = tracerProvider.getTracer('test').startSpan('job');
  await context.with(trace.setSpan(context.active(), parent), () =>
    getEvmTokenPrice(client, { address: WETH }).catch((error: unknown) => error),
  );
  parent.end();

  const finished = spans.getFinishedSpans();
  const call = finished.find((s) => s.name === 'blockwire getEvmTokenPrice')!;
  expect(call.parentSpanContext?.spanId).toBe(parent.spanContext().spanId);
  expect(call.attributes).toMatchObject({
    'http.request.method': 'GET',
    'server.address': '127.0.0.1',
    'http.response.status_code': 429,
    'error.type': 'RateLimitError',
    'blockwire.attempts': 3,
  });
  const attempts = finished.filter((s) => s.parentSpanContext?.spanId === call.spanContext().spanId);
  expect(
    attempts.map((s) => [
      s.name,
      s.attributes['http.request.resend_count'],
      s.attributes['http.response.status_code'],
    ]),
  ).toEqual([
    ['GET', undefined, 429],
    ['GET', 1, 429],
    ['GET', 2, 429],
  ]);

  const logged = (await (await fetch(`${emu.control}/requests?interface=evm`)).json()) as {
    requests: { traceparent?: string }[];
  };
  expect(logged.requests.map((r) => r.traceparent)).toEqual(
    attempts.map((s) => `00-${s.spanContext().traceId}-${s.spanContext().spanId}-01`),
  );
  expect(JSON.stringify(finished.map((s) => s.attributes))).not.toContain(emu.apiKey);

  await reader.forceFlush();
  const all = metricExporter.getMetrics().flatMap((m) => m.scopeMetrics.flatMap((s) => s.metrics));
  const byName = (name: string) => all.filter((m) => m.descriptor.name === name).at(-1)!;
  const histogram = byName('http.client.request.duration');
  expect(histogram.descriptor.unit).toBe('s');
  expect(histogram.dataPoints.reduce((n, p) => n + (p.value as { count: number }).count, 0)).toBe(3);
  expect(byName('blockwire.client.retries').dataPoints[0]!.value).toBe(2);
  expect(byName('blockwire.client.rate_limited').dataPoints[0]!.value).toBe(3);
  expect(JSON.stringify(all)).not.toContain(emu.apiKey);
});
