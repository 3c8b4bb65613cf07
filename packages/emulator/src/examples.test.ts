/**
 * Every operation and RPC method presents itself fully, and its example is real: the example
 * input goes through the SDK to the emulator and back, and both the example's response and the
 * emulator's reply are valid under the operation's response schema.
 */

import { describeAction, type Operation, runOperation } from '@blockwire/core';
import { actions as entityActions } from '@blockwire/entities/operations';
import { actions as priceActions } from '@blockwire/prices/operations';
import { createRpcClient } from '@blockwire/rpc';
import { methods, actions as rpcActions } from '@blockwire/rpc/operations';
import { actions as streamActions } from '@blockwire/streams/operations';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod/v4';
import { restOperations } from './operations.js';
import { type Receiver, startReceiver, useEmulator, withLiveIds } from './test-support.js';

const t = useEmulator({ anvil: true });
let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver.close());

const allActions = [...priceActions, ...entityActions, ...streamActions, ...rpcActions];
const endpoints = [...restOperations, ...methods];

describe('every endpoint presents itself', () => {
  it('has exactly one action per operation and RPC method, and no action without one', () => {
    expect(allActions.map((action) => action.operation.id).sort()).toEqual(
      endpoints.map((endpoint) => endpoint.id).sort(),
    );
  });

  it('uses each resource + action pair once, with the values the n8n node relies on', () => {
    const pairs = endpoints.map((endpoint) => `${endpoint.resource}.${endpoint.action}`);
    expect(new Set(pairs).size).toBe(pairs.length);
    const byResource: Record<string, string[]> = {};
    for (const endpoint of endpoints) {
      byResource[endpoint.resource] = [...(byResource[endpoint.resource] ?? []), endpoint.action];
    }
    // Saved workflows name these values: they stay (an endpoint added later adds its own).
    const relied = {
      tokenPrice: ['getEvm', 'getSolana'],
      entity: ['getByCategory', 'search', 'get', 'getCategories'],
      evmStream: ['updateStatus'],
      settings: ['update'],
      bitcoinStream: [
        'create',
        'get',
        'getMany',
        'update',
        'delete',
        'setStatus',
        'getBlockData',
        'replayBlock',
        'addAddress',
        'removeAddress',
        'getAddresses',
        'addXpub',
        'removeXpub',
        'getXpubs',
      ],
      rpc: methods.map((method) => method.id),
    };
    for (const [resource, actions] of Object.entries(relied)) {
      expect(byResource[resource], resource).toEqual(expect.arrayContaining(actions));
    }
  });

  it.each(allActions.map((action) => [action.operation.id, action] as const))(
    '%s: a display name, a summary and a description for every field',
    (_id, action) => {
      const description = describeAction(action);
      expect(description.displayName.trim()).not.toBe('');
      expect(description.summary.trim()).not.toBe('');
      for (const field of description.fields) {
        expect(field.description.length, `${action.operation.id}.${field.name}`).toBeGreaterThan(10);
        expect(field.displayName).not.toBe('');
      }
    },
  );

  it('offers the chain registry as the options of a chain field', () => {
    const price = describeAction(priceActions[0]);
    const chain = price.fields.find((field) => field.name === 'chain')!;
    expect(chain.type).toBe('options');
    expect(chain.options!.map((option) => option.value)).toContain('polygon');
    expect(chain.options).toHaveLength(32);
  });
});

describe('every example round-trips through the SDK and the emulator', () => {
  it.each(endpoints.map((endpoint) => [endpoint.id, endpoint] as const))('%s', async (_id, endpoint) => {
    // Outside the loop: an endpoint with no example would otherwise pass having checked nothing.
    expect(endpoint.examples.length, `${endpoint.id} has an example`).toBeGreaterThan(0);
    for (const example of endpoint.examples) {
      const schema = 'response' in endpoint ? endpoint.response : endpoint.result;
      expect(z.safeParse(schema, example.response).error, `${endpoint.id}: example response`).toBeUndefined();
      const input = await withLiveIds(t.client, receiver.url, endpoint, example.input);
      const reply = await send(endpoint, input);
      expect(z.safeParse(schema, reply).error, `${endpoint.id}: emulator reply`).toBeUndefined();
    }
  });
});

async function send(endpoint: (typeof endpoints)[number], input: Record<string, unknown>): Promise<unknown> {
  if ('api' in endpoint) return runOperation(t.client, endpoint as Operation, input);
  const rpc = createRpcClient(t.client, { chain: 'eth' });
  return rpc.call(endpoint, input as never);
}
