/**
 * The emulator's replies hold the contract's full field lists (see `contractIssues`): every field
 * the contract names for a resource is there, with its type, and no field it does not name. Where
 * the spec does not show a shape, a field the contract types is of its type when it comes.
 */

import { buildRequest, encodeQuery } from '@blockwire/core/internal';
import { contractIssues } from '@blockwire/testing/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod/v4';
import { restOperations } from './operations.js';
import { call, liveStream, type Receiver, startReceiver, useEmulator, withLiveIds } from './test-support.js';

const operation = (id: string) => restOperations.find((op) => op.id === id)!;
const issuesOf = (id: string, body: unknown) => contractIssues(operation(id), body);

describe('the contract check', () => {
  it('fails a reply the liberal schema lets through', () => {
    const solana = operation('getSolanaTokenPrices');
    expect(z.safeParse(solana.response, [{ foo: 1 }]).success).toBe(true);
    const issues = issuesOf('getSolanaTokenPrices', [{ foo: 1 }]);
    expect(issues).toContain('(the body)[0].usdPrice: missing');
    expect(issues).toContain('(the body)[0].foo: not in the contract');
  });

  it('fails an EVM price with only its 3 required fields, and one with a field of the wrong type', () => {
    const minimal = { usdPrice: 1, possibleSpam: false, verifiedContract: true };
    expect(z.safeParse(operation('getEvmTokenPrice').response, minimal).success).toBe(true);
    expect(issuesOf('getEvmTokenPrice', minimal)).toHaveLength(17);
    expect(issuesOf('getEvmTokenPrice', { ...minimal, tokenDecimals: 18 })).toContain(
      'tokenDecimals: must be a string',
    );
  });

  it('fails a Bitcoin stream list whose records lack a field', () => {
    const [example] = operation('listBitcoinStreams').examples;
    const list = example.response as { total: number; result: Record<string, unknown>[] };
    expect(issuesOf('listBitcoinStreams', list)).toEqual([]);
    const { updatedAt: _, ...record } = list.result[0]!;
    expect(issuesOf('listBitcoinStreams', { ...list, result: [record] })).toEqual([
      'result[0].updatedAt: missing',
    ]);
  });

  const stream = operation('getBitcoinStream').examples[0].response as Record<string, unknown>;
  const { updatedAt: _, ...streamWithoutUpdatedAt } = stream;
  // A wrong shape for each call whose reply the contract checks, and the issue that must name it.
  const wrong: [string, unknown, string][] = [
    ['updateBitcoinStream', streamWithoutUpdatedAt, 'updatedAt: missing'],
    ['updateBitcoinStream', { ...stream, amountOfAddresses: '1' }, 'amountOfAddresses: must be a number'],
    ['updateBitcoinStream', { ...stream, foo: 1 }, 'foo: not in the contract'],
    [
      'setBitcoinStreamStatus',
      { ...stream, status: 'stopped' },
      'status: not one of active, paused, error, terminated',
    ],
    ['setBitcoinStreamStatus', 'paused', '(the body): must be an object'],
    ['deleteBitcoinStream', { id: 7 }, 'id: must be a string'],
    ['getBitcoinBlockWebhookData', { confirmed: 'yes' }, 'confirmed: must be a boolean'],
    ['getBitcoinBlockWebhookData', { block: { height: '1', hash: 5 } }, 'block.hash: must be a string'],
    ['getBitcoinBlockWebhookData', { transactions: [{ txid: 1 }] }, 'transactions[0].txid: must be a string'],
    ['getBitcoinBlockWebhookData', [], '(the body): must be an object'],
    [
      'getBitcoinBlockWebhookData',
      { transactions: [{ vout: {} }] },
      'transactions[0].vout: must be an array',
    ],
    [
      'getBitcoinBlockWebhookData',
      { transactions: [{ vout: [{ scriptPubKey: { type: 0 } }] }] },
      'transactions[0].vout[0].scriptPubKey.type: must be a string',
    ],
    ['replayBitcoinBlock', { transactionCount: '3' }, 'transactionCount: must be a number'],
    ['replayBitcoinBlock', { confirmed: 1 }, 'confirmed: must be a boolean'],
    ['listBitcoinStreamAddresses', { result: {} }, 'result: must be an array'],
    ['listBitcoinStreamAddresses', { result: [{ address: 1 }] }, 'result[0].address: must be a string'],
    ['listBitcoinStreamAddresses', { total: '1', result: [] }, 'total: must be a number'],
    ['addBitcoinStreamAddress', { amountOfAddresses: '1' }, 'amountOfAddresses: must be a number'],
    ['removeBitcoinStreamAddress', { streamId: 1 }, 'streamId: must be a string'],
    ['listBitcoinStreamXpubs', { result: [{ id: 5 }] }, 'result[0].id: must be a string'],
    ['listBitcoinStreamXpubs', { cursor: 5, result: [] }, 'cursor: must be a string'],
    ['addBitcoinStreamXpub', { receiveAddresses: 'bc1q' }, 'receiveAddresses: must be an array'],
    ['removeBitcoinStreamXpub', { xpub: null }, 'xpub: must be a string'],
  ];
  it.each(wrong)('%s fails %j, naming the field', (id, body, issue) => {
    expect(issuesOf(id, body)).toContain(issue);
  });

  it.each(restOperations.map((op) => [op.id, op] as const))(
    '%s fails a body of the wrong kind (an array for an object, an object for an array)',
    (id, op) => {
      const [example] = op.examples;
      const isList = Array.isArray(example.response);
      const issues = issuesOf(id, isList ? {} : []);
      expect(issues).toEqual([`(the body): must be ${isList ? 'an array' : 'an object'}`]);
    },
  );

  it('promises no field of a shape the spec does not show, and takes a call answered without a body', () => {
    // The spec shows neither xpub records nor the replay's answer: a record without the fields the
    // SDK types, or with others, holds the contract; a missing body holds it where the SDK takes one.
    expect(issuesOf('listBitcoinStreamXpubs', { result: [{ gap: 20 }] })).toEqual([]);
    expect(issuesOf('replayBitcoinBlock', {})).toEqual([]);
    expect(issuesOf('deleteBitcoinStream', undefined)).toEqual([]);
    expect(issuesOf('getBitcoinBlockWebhookData', undefined)).toEqual(['(the body): must be an object']);
  });
});

describe('the emulator answers with the contract’s full field lists', () => {
  const t = useEmulator();
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await startReceiver();
    // A stream with an address and an xpub, so that every list has a record to check.
    await liveStream(t.client, receiver.url);
  });
  afterAll(() => receiver.close());

  // Every REST operation, each with its own examples' inputs (ids made live by the emulator).
  it.each(restOperations.map((op) => [op.id, op] as const))('%s, for its example input', async (id, op) => {
    for (const example of op.examples) {
      const input = await withLiveIds(t.client, receiver.url, op, example.input);
      const { path, query, body } = buildRequest(op, z.parse(op.input, input) as Record<string, unknown>);
      const response = await call(`${t.emu.urls[op.api]}${path}${encodeQuery(query)}`, {
        method: op.method,
        key: t.emu.apiKey,
        body,
      });
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      expect(issuesOf(id, response.body)).toEqual([]);
    }
  });
});
