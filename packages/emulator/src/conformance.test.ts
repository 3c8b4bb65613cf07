/**
 * Every JSON-RPC method's result, from the emulator's node interface (a real anvil), passes the
 * rpc package's result schema. The REST routes are held to their response schemas by
 * examples.test.ts (every example through the SDK) and to the contract's field lists by
 * contract-shapes.test.ts.
 */
import { encodeParams, methods } from '@blockwire/rpc/operations';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Emulator } from './server.js';
import { call, emulator } from './test-support.js';

let emu: Emulator;

beforeAll(async () => {
  emu = await emulator({ anvil: true });
});
afterAll(async () => {
  await emu?.close();
});

describe('results of every JSON-RPC method', () => {
  const args = (): Record<string, Record<string, unknown>> => {
    const chain = emu.chain!;
    return {
      getBlockByHash: { hash: '' },
      getBlockByNumber: { blockTag: 2, fullTransactions: true },
      getUncleByBlockHashAndIndex: { hash: '', index: 0 },
      getUncleByBlockNumberAndIndex: { blockTag: 'latest', index: 0 },
      getBlockReceipts: { blockTag: 2 },
      getTransactionByHash: { hash: chain.transactionHashes[1] },
      getTransactionReceipt: { hash: chain.transactionHashes[0] },
      getProof: { address: chain.contract, storageKeys: [`0x${'0'.repeat(64)}`] },
    };
  };

  it.each(methods.map((method) => [method.id, method] as const))(
    '%s returns a result its schema accepts',
    async (id, method) => {
      const rpc = async (name: string, params: unknown[]) =>
        (
          await call(`${emu.urls.node}/eth/${emu.apiKey}`, {
            method: 'POST',
            body: { jsonrpc: '2.0', id: 1, method: name, params },
          })
        ).body;
      const input = args()[id]!;
      if ('hash' in input && input.hash === '') {
        input.hash = (await rpc('eth_getBlockByNumber', ['0x2', false])).result.hash;
      }
      const reply = await rpc(method.method, encodeParams(method, input as never));
      expect(reply.error).toBeUndefined();
      const parsed = method.result.safeParse(reply.result);
      expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
      // anvil has no uncles; every other method returns data from the seeded chain.
      if (!id.startsWith('getUncle')) expect(reply.result).not.toBeNull();
    },
  );
});
