/**
 * OpenTelemetry metrics for the webhook kit of `@blockwire/streams`, from its
 * `blockwire:webhook:*` channels: every request the handler answered, by outcome and why it was
 * refused; every stage a Bitcoin transaction moved to; callbacks that threw or ran again; and the
 * PostgreSQL store's lost and regained sessions and takeovers. Counters an operator can alert on
 * ("deliveries refused for a bad signature > 0 in 5 minutes").
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import {
  type CallbackEvent,
  type DeliveryEvent,
  type StageEvent,
  type StoreEvent,
  WEBHOOK_CHANNELS,
  type WebhookEvents,
} from '@blockwire/streams/operations';
import { type Attributes, type MeterProvider, metrics } from '@opentelemetry/api';
import { SCOPE, VERSION } from './scope.js';

export interface WebhookInstrumentationOptions {
  /** Default: the global one (`metrics.getMeterProvider()`). */
  meterProvider?: MeterProvider;
}

export interface WebhookInstrumentation {
  /** Stops listening: no measurement after this. */
  disable(): void;
}

type Listeners = { [K in keyof WebhookEvents]: (message: WebhookEvents[K]) => void };

/** Starts counting what every webhook handler and store of the process reports. */
export function instrumentWebhooks(options: WebhookInstrumentationOptions = {}): WebhookInstrumentation {
  const meter = (options.meterProvider ?? metrics.getMeterProvider()).getMeter(SCOPE, VERSION);
  const deliveries = meter.createCounter('blockwire.webhook.deliveries', {
    description:
      'Requests the webhook handler answered, by outcome (accepted, verification, refused, failed, unreadable) and, when refused or failed, why.',
    unit: '{request}',
  });
  const stageChanges = meter.createCounter('blockwire.webhook.stage_changes', {
    description: 'Bitcoin transactions moved to a stage (mempool, in-block, confirmed) by a delivery.',
    unit: '{transaction}',
  });
  const callbacks = meter.createCounter('blockwire.webhook.callbacks', {
    description: 'Callbacks that threw (failed), and callbacks of unfinished deliveries run again (resumed).',
    unit: '{callback}',
  });
  const storeEvents = meter.createCounter('blockwire.webhook.store.events', {
    description: "The delivery store's owner session lost, regained, and dead owners' deliveries taken over.",
    unit: '{event}',
  });

  const listeners: Listeners = {
    delivery: (message) => deliveries.add(1, deliveryAttributes(message)),
    stage: (message) => stageChanges.add(1, stageAttributes(message)),
    callback: (message) => callbacks.add(1, callbackAttributes(message)),
    store: (message) => storeEvents.add(1, storeAttributes(message)),
  };
  const subscribed = (Object.keys(listeners) as (keyof WebhookEvents)[]).map((kind) => {
    const listener = listeners[kind] as (message: unknown) => void;
    subscribe(WEBHOOK_CHANNELS[kind], listener);
    return () => unsubscribe(WEBHOOK_CHANNELS[kind], listener);
  });
  return {
    disable() {
      for (const stop of subscribed) stop();
    },
  };
}

/** Only what is defined: an attribute set to `undefined` would still be a distinct series. */
function defined(attributes: Record<string, string | number | boolean | undefined>): Attributes {
  const kept: Attributes = {};
  for (const [name, value] of Object.entries(attributes)) if (value !== undefined) kept[name] = value;
  return kept;
}

function deliveryAttributes(message: DeliveryEvent): Attributes {
  return defined({
    'blockwire.webhook.outcome': message.outcome,
    'http.response.status_code': message.status,
    'blockwire.webhook.reason': message.reason,
    'blockwire.webhook.kind': message.kind,
    'blockwire.webhook.stage': message.stage,
    'blockwire.webhook.duplicate': message.duplicate,
    'blockwire.webhook.stream_id': message.streamId,
  });
}

function stageAttributes(message: StageEvent): Attributes {
  return defined({
    'blockwire.webhook.stage': message.to,
    'blockwire.webhook.from_stage': message.from ?? 'none',
  });
}

function callbackAttributes(message: CallbackEvent): Attributes {
  return defined({
    'blockwire.webhook.kind': message.kind,
    'blockwire.webhook.outcome': message.outcome,
    'error.type': message.errorType,
  });
}

function storeAttributes(message: StoreEvent): Attributes {
  return { 'blockwire.webhook.store': message.store, 'blockwire.webhook.store.event': message.event };
}
