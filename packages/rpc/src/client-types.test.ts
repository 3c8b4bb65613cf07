/**
 * The RpcClient type is derived from the method definitions; the client holds the node to what
 * the derived types promise.
 */
import { createClient } from '@blockwire/core';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { RpcClient } from './client.js';
import { createRpcClient } from './create-rpc-client.js';
import type { Hex } from './inputs.js';
import type { RpcMethodResult } from './method.js';
import type { getBlockByHashMethod, methods } from './methods/index.js';
import type { Block, Proof, Receipt, Transaction, Uncle } from './schemas.js';
import { callsOf, json, startServer } from './testing/server.js';

const HASH = `0x${'ab'.repeat(32)}` as const;

/**
 * Compile-time checks of the derived type (run by `tsc` in the typecheck task, never called): a
 * definition change that breaks a signature fails the build.
 */
function typeLevelChecks(rpc: RpcClient): void {
  expectTypeOf<keyof RpcClient>().toEqualTypeOf<
    'chain' | 'request' | 'call' | 'readContract' | 'getTokenBalance' | (typeof methods)[number]['id']
  >();
  // Blocks are typed by the fullTransactions flag.
  expectTypeOf(rpc.getBlockByNumber('latest')).resolves.toEqualTypeOf<Block<Hex> | null>();
  expectTypeOf(rpc.getBlockByNumber('latest', false)).resolves.toEqualTypeOf<Block<Hex> | null>();
  expectTypeOf(rpc.getBlockByNumber(1, true)).resolves.toEqualTypeOf<Block<Transaction> | null>();
  expectTypeOf(
    rpc.getBlockByHash(HASH, true, { signal: AbortSignal.timeout(1000) }),
  ).resolves.toEqualTypeOf<Block<Transaction> | null>();
  const flag = Math.random() > 0.5;
  expectTypeOf(rpc.getBlockByHash(HASH, flag)).resolves.toEqualTypeOf<
    RpcMethodResult<typeof getBlockByHashMethod>
  >();
  // Each argument as its params schema accepts it, the options last.
  expectTypeOf(rpc.getUncleByBlockNumberAndIndex(12, '0x0')).resolves.toEqualTypeOf<Uncle | null>();
  expectTypeOf(rpc.getBlockReceipts('pending')).resolves.toEqualTypeOf<Receipt[] | null>();
  expectTypeOf(rpc.getTransactionReceipt(HASH)).resolves.toEqualTypeOf<Receipt | null>();
  expectTypeOf(rpc.getProof(HASH.slice(0, 42), [], null)).resolves.toEqualTypeOf<Proof | null>();
  // @ts-expect-error: a block tag is a number or a tag, not an object
  void rpc.getBlockByNumber({});
  // Storage keys may be left out: the account alone is proved.
  expectTypeOf(rpc.getProof(HASH.slice(0, 42))).resolves.toEqualTypeOf<Proof | null>();
}
void typeLevelChecks;

describe('fullTransactions', () => {
  it('holds the node to the flag: hashes where objects were asked for is a ResponseValidationError', async () => {
    const block = { ...(await import('./methods/examples.js')).exampleBlock };
    const server = await startServer((req, res) => {
      const [call] = callsOf(req.json);
      json(res, 200, { jsonrpc: '2.0', id: call!.id, result: block });
    });
    const client = createClient({ apiKey: 'k', baseUrls: { node: server.url }, retry: false });
    try {
      const node = createRpcClient(client, { chain: 'eth' });
      expect((await node.getBlockByNumber(1))?.transactions).toEqual(block.transactions);
      await expect(node.getBlockByNumber(1, true)).rejects.toMatchObject({
        name: 'ResponseValidationError',
        message: expect.stringContaining(
          'transactions.0: must be a transaction object (fullTransactions was true)',
        ),
      });
    } finally {
      await client.close();
      await server.close();
    }
  });
});
