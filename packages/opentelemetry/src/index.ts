/**
 * OpenTelemetry for Blockwire clients, from the `blockwire:call` tracing channel of
 * `@blockwire/core`: a span per call with a child span per attempt (HTTP client semantic
 * conventions), `http.client.request.duration`, retries and 429s counted, and the trace context
 * sent with every attempt through the `addHeaders` hook. The webhook kit's metrics are
 * `instrumentWebhooks` (./webhooks.ts).
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { type AttemptRecord, CALL_CHANNEL, type CallMessage, type ClientHooks } from '@blockwire/core';
import {
  type Attributes,
  type Context,
  context,
  type MeterProvider,
  metrics,
  propagation,
  type Span,
  SpanKind,
  SpanStatusCode,
  type TracerProvider,
  trace,
} from '@opentelemetry/api';

import { SCOPE, VERSION } from './scope.js';

export interface BlockwireInstrumentationOptions {
  /** Default: the global one (`trace.getTracerProvider()`). */
  tracerProvider?: TracerProvider;
  /** Default: the global one (`metrics.getMeterProvider()`). */
  meterProvider?: MeterProvider;
}

export interface BlockwireInstrumentation {
  /** Give these to `createClient({ hooks })` (spread beside your own) to send the trace context. */
  hooks: Pick<ClientHooks, 'addHeaders'>;
  /** Stops listening: no span or measurement after this. */
  disable(): void;
}

/** A call in flight: its span, the context its attempts start in, and their spans so far. */
interface OpenCall {
  span: Span;
  context: Context;
  attempts: Map<number, Span>;
}

/** Starts listening to every Blockwire client of the process. */
export function instrumentBlockwire(options: BlockwireInstrumentationOptions = {}): BlockwireInstrumentation {
  const tracer = (options.tracerProvider ?? trace.getTracerProvider()).getTracer(SCOPE, VERSION);
  const meter = (options.meterProvider ?? metrics.getMeterProvider()).getMeter(SCOPE, VERSION);
  const duration = meter.createHistogram('http.client.request.duration', {
    description: 'Duration of HTTP client requests (each attempt).',
    unit: 's',
    advice: {
      explicitBucketBoundaries: [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10],
    },
  });
  const retries = meter.createCounter('blockwire.client.retries', {
    description: 'Attempts sent again after a failed one.',
    unit: '{retry}',
  });
  const rateLimited = meter.createCounter('blockwire.client.rate_limited', {
    description: 'Attempts answered 429 Too Many Requests.',
    unit: '{response}',
  });
  const calls = new Map<number, OpenCall>();

  const onStart = (raw: unknown) => {
    const message = raw as CallMessage;
    const parent = context.active();
    const span = tracer.startSpan(
      `blockwire ${message.operation ?? message.method}`,
      { kind: SpanKind.INTERNAL, attributes: callAttributes(message) },
      parent,
    );
    calls.set(message.callId, { span, context: trace.setSpan(parent, span), attempts: new Map() });
  };

  const onEnd = (raw: unknown) => {
    const message = raw as CallMessage;
    const call = calls.get(message.callId);
    if (!call) return;
    calls.delete(message.callId);
    for (const record of message.attemptLog) {
      const span =
        call.attempts.get(record.attempt) ?? startAttempt(call, message, record.attempt, record.startTime);
      endAttempt(span, message, record);
      duration.record(record.durationMs / 1000, measuredAttributes(message, record));
      if (record.status === 429) rateLimited.add(1, serverAttributes(message));
    }
    if (message.retryDelaysMs.length > 0)
      retries.add(message.retryDelaysMs.length, serverAttributes(message));
    call.span.setAttribute('blockwire.attempts', message.attempts);
    if (message.status !== undefined) call.span.setAttribute('http.response.status_code', message.status);
    if (message.errorType !== undefined) {
      call.span.setAttribute('error.type', message.errorType);
      call.span.setStatus({ code: SpanStatusCode.ERROR, message: message.errorType });
    }
    call.span.end();
  };

  /** An attempt's span: started by `addHeaders` as it goes out, or at the call's end from its record. */
  function startAttempt(
    call: OpenCall,
    target: Pick<CallMessage, 'method' | 'baseUrl'>,
    attempt: number,
    startTime?: number,
  ): Span {
    const attributes = serverAttributes(target);
    if (attempt > 1) attributes['http.request.resend_count'] = attempt - 1;
    const span = tracer.startSpan(
      target.method,
      { kind: SpanKind.CLIENT, attributes, startTime },
      call.context,
    );
    call.attempts.set(attempt, span);
    return span;
  }

  const hooks: BlockwireInstrumentation['hooks'] = {
    addHeaders(info) {
      const call = info.callId === undefined ? undefined : calls.get(info.callId);
      if (!call) return undefined;
      const span = startAttempt(call, { method: info.method, baseUrl: info.url }, info.attempt);
      const carrier: Record<string, string> = {};
      propagation.inject(trace.setSpan(call.context, span), carrier);
      return carrier;
    },
  };

  subscribe(`tracing:${CALL_CHANNEL}:start`, onStart);
  subscribe(`tracing:${CALL_CHANNEL}:asyncEnd`, onEnd);
  return {
    hooks,
    disable() {
      unsubscribe(`tracing:${CALL_CHANNEL}:start`, onStart);
      unsubscribe(`tracing:${CALL_CHANNEL}:asyncEnd`, onEnd);
    },
  };
}

function endAttempt(span: Span, message: CallMessage, record: AttemptRecord): void {
  if (record.status !== undefined) span.setAttribute('http.response.status_code', record.status);
  if (record.errorType !== undefined) {
    span.setAttribute(
      'error.type',
      record.status !== undefined && record.status >= 400 ? String(record.status) : record.errorType,
    );
    span.setStatus({ code: SpanStatusCode.ERROR, message: record.errorType });
  }
  span.setAttribute('blockwire.operation', message.operation ?? '');
  span.end(record.startTime + record.durationMs);
}

function serverAttributes(message: Pick<CallMessage, 'method' | 'baseUrl'>): Attributes {
  const url = new URL(message.baseUrl);
  return {
    'http.request.method': message.method,
    'server.address': url.hostname,
    'server.port': Number(url.port || (url.protocol === 'https:' ? 443 : 80)),
  };
}

function callAttributes(message: CallMessage): Attributes {
  return {
    ...serverAttributes(message),
    'blockwire.interface': message.interface,
    'blockwire.api': message.api,
    ...(message.operation === undefined ? {} : { 'blockwire.operation': message.operation }),
  };
}

function measuredAttributes(message: CallMessage, record: AttemptRecord): Attributes {
  const attributes = serverAttributes(message);
  if (record.status !== undefined) attributes['http.response.status_code'] = record.status;
  if (record.errorType !== undefined)
    attributes['error.type'] =
      record.status !== undefined && record.status >= 400 ? String(record.status) : record.errorType;
  return attributes;
}

export {
  instrumentWebhooks,
  type WebhookInstrumentation,
  type WebhookInstrumentationOptions,
} from './webhooks.js';
