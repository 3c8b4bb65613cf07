/**
 * What the kit publishes beside each answer: a stage event per transaction a Bitcoin delivery
 * moved, a delivery seen twice marked duplicate, and callbacks that failed or ran again. (One
 * delivery event per request answered, for every status, is checked in handler-statuses.test.ts;
 * the PostgreSQL store's connection events in postgres-store.test.ts.)
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { afterEach, describe, expect, it } from 'vitest';
import { bitcoinDelivery, EVM_DELIVERY, MEMPOOL_DELIVERY, txidOf } from './__fixtures__/bitcoin.js';
import { createWebhookHandler, type WebhookHandlerOptions } from './handler.js';
import { signBody } from './signature.js';
import { createMemoryTxStore } from './store.js';
import { createBitcoinTxTracker } from './tracker.js';
import { WEBHOOK_CHANNELS, type WebhookEvents } from './webhook-events.js';

const SECRET = 'whsec_events';

const listeners: [string, (message: unknown) => void][] = [];
afterEach(() => {
  for (const [name, listener] of listeners.splice(0)) unsubscribe(name, listener);
});

/** Everything published on one of the kit's channels from now on. */
function heard<K extends keyof WebhookEvents>(kind: K): WebhookEvents[K][] {
  const messages: WebhookEvents[K][] = [];
  const listener = (message: unknown) => messages.push(message as WebhookEvents[K]);
  subscribe(WEBHOOK_CHANNELS[kind], listener);
  listeners.push([WEBHOOK_CHANNELS[kind], listener]);
  return messages;
}

function receiver(options: Partial<WebhookHandlerOptions> = {}) {
  return createWebhookHandler({
    secret: SECRET,
    tracker: createBitcoinTxTracker({ store: createMemoryTxStore() }),
    onError: () => undefined,
    ...options,
  });
}

async function deliver(handler: ReturnType<typeof receiver>, payload: object) {
  const body = JSON.stringify(payload);
  const response = await handler({ headers: { 'x-signature': await signBody(body, SECRET) }, rawBody: body });
  expect(response.status).toBe(200);
}

describe('the webhook kit’s events', () => {
  it('a stage event per transaction moved: mempool, then confirmed (a stage skipped is one move)', async () => {
    const stages = heard('stage');
    const handler = receiver();
    await deliver(handler, bitcoinDelivery('mempool', [txidOf(1), txidOf(2)]));
    await deliver(handler, bitcoinDelivery('confirmed', [txidOf(1)]));
    await handler.close();
    expect(stages.map(({ txid, from, to }) => [txid, from, to])).toEqual([
      [txidOf(1), null, 'mempool'],
      [txidOf(2), null, 'mempool'],
      [txidOf(1), 'mempool', 'confirmed'],
    ]);
  });

  it('a delivery seen twice is accepted as a duplicate and moves nothing', async () => {
    const deliveries = heard('delivery');
    const stages = heard('stage');
    const handler = receiver();
    await deliver(handler, MEMPOOL_DELIVERY);
    await deliver(handler, MEMPOOL_DELIVERY);
    await handler.close();
    expect(deliveries.map((d) => [d.outcome, d.duplicate])).toEqual([
      ['accepted', false],
      ['accepted', true],
    ]);
    expect(stages).toHaveLength(1);
  });

  it('a callback that throws: one failed event with the class of what it threw, Bitcoin and EVM', async () => {
    const callbacks = heard('callback');
    const handler = receiver({
      onBitcoin: () => {
        throw new TypeError('the CRM is down');
      },
      onEvm: async () => {
        throw new RangeError('no');
      },
    });
    await deliver(handler, MEMPOOL_DELIVERY);
    await deliver(handler, EVM_DELIVERY);
    await handler.close();
    expect(callbacks).toEqual([
      { kind: 'bitcoin', outcome: 'failed', deliveryId: expect.any(String), errorType: 'TypeError' },
      { kind: 'evm', outcome: 'failed', deliveryId: undefined, errorType: 'RangeError' },
    ]);
  });

  it('a delivery whose callback failed runs again in the next receiver on the store: a resumed event', async () => {
    const store = createMemoryTxStore();
    const first = receiver({
      tracker: createBitcoinTxTracker({ store }),
      onBitcoin: () => {
        throw new Error('down');
      },
    });
    await deliver(first, MEMPOOL_DELIVERY);
    await first.close();
    const callbacks = heard('callback');
    const next = receiver({ tracker: createBitcoinTxTracker({ store }), onBitcoin: () => undefined });
    await next.close();
    expect(callbacks).toEqual([{ kind: 'bitcoin', outcome: 'resumed', deliveryId: expect.any(String) }]);
  });
});
