import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type NodeProxy, seedBlocks, startAnvil, startNodeProxy } from './anvil.ts';

type Reply = { jsonrpc: string; id: unknown; result?: unknown; error?: unknown };

async function post(url: string, body: unknown): Promise<Reply | Reply[]> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return (await response.json()) as Reply | Reply[];
}

describe('the node proxy', () => {
  let anvil: Awaited<ReturnType<typeof startAnvil>>;
  let proxy: NodeProxy;
  let first: number;

  beforeAll(async () => {
    anvil = await startAnvil();
    first = await seedBlocks(anvil.url, 2, 2);
    proxy = await startNodeProxy(anvil.url, 'eth', 'test-key');
  }, 60_000);
  afterAll(async () => {
    await proxy?.close();
    await anvil?.stop();
  });

  const blockCalls = (id: number) => [
    { jsonrpc: '2.0', id, method: 'eth_getBlockByNumber', params: [`0x${first.toString(16)}`, true] },
    { jsonrpc: '2.0', id: `r${id}`, method: 'eth_getBlockReceipts', params: [`0x${first.toString(16)}`] },
  ];

  it("answers a mined block's calls asked again with anvil's own results, under the ids asked with", async () => {
    const direct = (await post(anvil.url, blockCalls(1))) as Reply[];
    await proxy.reset();
    const once = (await post(proxy.url, blockCalls(2))) as Reply[];
    const again = (await post(proxy.url, blockCalls(3))) as Reply[];
    expect(once.map((reply) => reply.result)).toEqual(direct.map((reply) => reply.result));
    expect(again.map((reply) => reply.result)).toEqual(direct.map((reply) => reply.result));
    expect(again.map((reply) => reply.id)).toEqual([3, 'r3']);
    expect((direct[0]!.result as { transactions: unknown[] }).transactions).toHaveLength(2);
    expect(await proxy.counts()).toEqual({ requests: 2, calls: 4 });
  });

  it('sends every other call to anvil, so what changes is never answered from memory', async () => {
    const height = async () =>
      Number(((await post(proxy.url, { jsonrpc: '2.0', id: 1, method: 'eth_blockNumber' })) as Reply).result);
    const before = await height();
    await post(anvil.url, { jsonrpc: '2.0', id: 1, method: 'evm_mine', params: [] });
    expect(await height()).toBe(before + 1);
    const latest = { jsonrpc: '2.0', id: 7, method: 'eth_getBlockByNumber', params: ['latest', false] };
    const latestBefore = (await post(proxy.url, latest)) as Reply;
    await post(anvil.url, { jsonrpc: '2.0', id: 1, method: 'evm_mine', params: [] });
    const latestAfter = (await post(proxy.url, latest)) as Reply;
    expect((latestAfter.result as { number: string }).number).not.toBe(
      (latestBefore.result as { number: string }).number,
    );
  });

  it('remembers no answer that is not a result: a block not mined yet is asked of anvil again', async () => {
    const ahead = `0x${(first + 1000).toString(16)}`;
    const call = { jsonrpc: '2.0', id: 1, method: 'eth_getBlockByNumber', params: [ahead, false] };
    expect(((await post(proxy.url, call)) as Reply).result).toBeNull();
    await post(anvil.url, { jsonrpc: '2.0', id: 1, method: 'anvil_mine', params: ['0x3e8'] });
    expect(((await post(proxy.url, call)) as Reply).result).toMatchObject({ number: ahead });
  });

  it('answers from memory, with anvil stopped, what anvil answered once', async () => {
    const asked = (await post(proxy.url, blockCalls(4))) as Reply[];
    await anvil.stop();
    const remembered = (await post(proxy.url, blockCalls(5))) as Reply[];
    expect(remembered.map((reply) => reply.result)).toEqual(asked.map((reply) => reply.result));
  });
});
