/**
 * The emulator's replies hold the contract's full field lists (see `contractIssues`): every field
 * the contract names for a resource is there, with its type, and no field it does not name.
 */
import type { Operation } from '@blockwire/core';
import { buildRequest, encodeQuery } from '@blockwire/core/internal';
import { operations as entityOperations } from '@blockwire/entities/operations';
import { operations as priceOperations } from '@blockwire/prices/operations';
import { operations as streamOperations } from '@blockwire/streams/operations';
import { contractIssues } from '@blockwire/testing/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Emulator } from './server.js';
import { call, emulator, type Receiver, startReceiver } from './test-support.js';

const allOperations: Operation[] = [...priceOperations, ...entityOperations, ...streamOperations];
const operation = (id: string) => allOperations.find((op) => op.id === id)!;
const issuesOf = (id: string, body: unknown) => contractIssues(operation(id), body);

describe('the contract check', () => {
  it('fails a reply the liberal schema lets through', () => {
    const solana = operation('getSolanaTokenPrices');
    expect(solana.response.safeParse([{ foo: 1 }]).success).toBe(true);
    const issues = issuesOf('getSolanaTokenPrices', [{ foo: 1 }]);
    expect(issues).toContain('(the body)[0].usdPrice: missing');
    expect(issues).toContain('(the body)[0].foo: not in the contract');
  });

  it('fails an EVM price with only its 3 required fields, and one with a field of the wrong type', () => {
    const minimal = { usdPrice: 1, possibleSpam: false, verifiedContract: true };
    expect(operation('getEvmTokenPrice').response.safeParse(minimal).success).toBe(true);
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
});

describe('the emulator answers with the contract’s full field lists', () => {
  let emu: Emulator;
  let receiver: Receiver;
  beforeAll(async () => {
    [emu, receiver] = await Promise.all([emulator(), startReceiver()]);
  });
  afterAll(async () => {
    await emu?.close();
    await receiver?.close();
  });

  async function reply(id: string, input: Record<string, unknown>): Promise<unknown> {
    const op = operation(id);
    const { path, query, body } = buildRequest(op, op.input.parse(input) as Record<string, unknown>);
    const response = await call(`${emu.urls[op.api]}${path}${encodeQuery(query)}`, {
      method: op.method,
      key: emu.apiKey,
      body,
    });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return response.body;
  }

  // The operations whose example input needs nothing the emulator has to make first.
  const standalone = [
    ...priceOperations,
    ...entityOperations,
    operation('updateEvmStreamStatus'),
    operation('updateSettings'),
  ];
  it.each(standalone.map((op) => [op.id, op] as const))('%s, for its example input', async (id, op) => {
    expect(issuesOf(id, await reply(id, op.examples[0].input))).toEqual([]);
  });

  it('createBitcoinStream, getBitcoinStream and listBitcoinStreams', async () => {
    const created = (await reply('createBitcoinStream', {
      webhookUrl: receiver.url,
      description: 'contract',
      tag: 'c',
      includeInputs: true,
      includeOutputs: true,
    })) as { id: string };
    expect(issuesOf('createBitcoinStream', created)).toEqual([]);
    expect(issuesOf('getBitcoinStream', await reply('getBitcoinStream', { id: created.id }))).toEqual([]);
    expect(issuesOf('listBitcoinStreams', await reply('listBitcoinStreams', {}))).toEqual([]);
  });
});
