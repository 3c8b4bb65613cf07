import { isCoinbaseTransaction } from '@blockwire/streams';
import { describe, expect, it } from 'vitest';
import { blockPayload } from './payload.js';
import { BitcoinSimulator, DEFAULT_RETAINED_BLOCKS } from './simulator.js';

const everything = { streamId: '', tag: '', includeInputs: true, includeOutputs: true };

describe('BitcoinSimulator', () => {
  it('is deterministic: the same seed and calls give the same chain', () => {
    const run = (seed: number) => {
      const simulator = new BitcoinSimulator({ seed });
      simulator.addTransaction({ to: 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu', amountBtc: '0.5' });
      simulator.addRandomTransactions(3);
      simulator.mine(2);
      return simulator.tip;
    };
    expect(run(7)).toEqual(run(7));
    expect(run(7).hash).not.toBe(run(8).hash);
  });

  it('puts a coinbase with one input and an OP_RETURN output first in every block', () => {
    const simulator = new BitcoinSimulator({ seed: 1 });
    simulator.mine(3);
    for (let height = simulator.firstHeight; height <= simulator.height; height++) {
      const [coinbase] = blockPayload(
        everything,
        simulator.blockAt(height)!,
        simulator.blockAt(height)!.transactions,
        false,
      ).transactions;
      expect(coinbase!.vin).toHaveLength(1);
      expect(coinbase!.vout.some((output) => output.scriptPubKey.type === 'nulldata')).toBe(true);
      expect(coinbase!.isCoinbase).toBe(false);
    }
  });

  it("flags only the coinbase by the spec's rule (one input and an OP_RETURN output)", () => {
    const simulator = new BitcoinSimulator({ seed: 2 });
    for (let i = 0; i < 40; i++) simulator.addRandomTransactions(3);
    simulator.mine(40);
    let withOpReturn = 0;
    for (let height = simulator.firstHeight; height <= simulator.height; height++) {
      const block = simulator.blockAt(height)!;
      const { transactions } = blockPayload(everything, block, block.transactions, false);
      expect(transactions.filter((tx) => isCoinbaseTransaction(tx))).toEqual([transactions[0]]);
      withOpReturn += transactions
        .slice(1)
        .filter((tx) => tx.vout.some((output) => output.scriptPubKey.type === 'nulldata')).length;
    }
    expect(withOpReturn).toBeGreaterThan(0); // payments carrying OP_RETURN exist, and are not flagged
  });

  it('produces every output type the spec names, with txids and hashes of 64 hex digits', () => {
    const simulator = new BitcoinSimulator({ seed: 3 });
    simulator.addRandomTransactions(20);
    simulator.mine(10);
    const types = new Set<string>();
    for (let height = simulator.firstHeight; height <= simulator.height; height++) {
      const block = simulator.blockAt(height)!;
      expect(block.hash).toMatch(/^0{8}[0-9a-f]{56}$/);
      for (const tx of block.transactions) {
        expect(tx.txid).toMatch(/^[0-9a-f]{64}$/);
        for (const output of tx.vout) types.add(output.script.type);
      }
    }
    expect([...types].sort()).toEqual(
      ['nulldata', 'pubkeyhash', 'scripthash', 'witness_v0_keyhash', 'witness_v1_taproot'].sort(),
    );
  });

  it('mines mempool transactions, keeps evicted ones out, and links blocks', () => {
    const simulator = new BitcoinSimulator({ seed: 5 });
    const kept = simulator.addTransaction({ to: '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2', amountBtc: 1 });
    const dropped = simulator.addTransaction({ to: '3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy', amountBtc: 2 });
    expect(simulator.evict(dropped.txid)).toBe(true);
    expect(simulator.evict(dropped.txid)).toBe(false);
    const [block] = simulator.mine(1);
    const txids = block!.transactions.map((tx) => tx.txid);
    expect(txids).toContain(kept.txid);
    expect(txids).not.toContain(dropped.txid);
    expect(block!.previousBlockHash).toBe(simulator.blockAt(block!.height - 1)!.hash);
  });

  it('keeps fee accounting exact: inputs = outputs + fee, in satoshis', () => {
    const simulator = new BitcoinSimulator({ seed: 9 });
    const tx = simulator.addTransaction({
      to: 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu',
      amountBtc: '0.12345678',
    });
    const inputs = tx.vin.reduce((sum, input) => sum + input.valueSats!, 0n);
    const outputs = tx.vout.reduce((sum, output) => sum + output.valueSats, 0n);
    expect(inputs).toBe(outputs + tx.feeSats);
    expect(tx.vout[0]!.valueSats).toBe(12_345_678n);
  });

  it('spends each sender type the way Bitcoin does: scriptSig for P2PKH, witness for SegWit', () => {
    const simulator = new BitcoinSimulator({ seed: 11 });
    const to = 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu';
    const legacy = simulator.addTransaction({ to, amountBtc: 1, from: '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2' });
    const wrapped = simulator.addTransaction({
      to,
      amountBtc: 1,
      from: '3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy',
    });
    const native = simulator.addTransaction({ to, amountBtc: 1, from: to });
    expect(legacy.vin[0]!.witness).toEqual([]);
    expect(legacy.vin[0]!.scriptSigHex).toMatch(/^47304402/);
    expect(wrapped.vin[0]!.scriptSigHex).toMatch(/^160014[0-9a-f]{40}$/);
    expect(wrapped.vin[0]!.witness).toHaveLength(2);
    expect(native.vin[0]!.scriptSigHex).toBe('');
    expect(native.vin[0]!.witness[1]).toMatch(/^0[23][0-9a-f]{64}$/);
    const [block] = simulator.mine(1);
    const payload = blockPayload(everything, block!, [legacy], false);
    expect(payload.transactions[0]!.vin[0]!.scriptSig.asm).toMatch(/^304402[0-9a-f]+ 0[23][0-9a-f]{64}$/);
  });

  it('replaces a mempool transaction by fee: a new txid with a higher fee, the old one never mined', () => {
    const simulator = new BitcoinSimulator({ seed: 12 });
    const seen: string[] = [];
    simulator.subscribe({ mempool: (tx) => seen.push(tx.txid) });
    const original = simulator.addTransaction({ to: '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2', amountBtc: 1 });
    const replacement = simulator.replace(original.txid)!;
    expect(replacement.txid).not.toBe(original.txid);
    expect(replacement.feeSats).toBeGreaterThan(original.feeSats);
    expect(replacement.vin[0]!.txid).toBe(original.vin[0]!.txid);
    expect(replacement.vout[0]).toEqual(original.vout[0]);
    const total = (tx: typeof original) =>
      tx.vout.reduce((sum, output) => sum + output.valueSats, 0n) + tx.feeSats;
    expect(total(replacement)).toBe(total(original));
    expect(simulator.isEvicted(original.txid)).toBe(true);
    expect(seen).toEqual([original.txid, replacement.txid]);
    const txids = simulator.mine(1)[0]!.transactions.map((tx) => tx.txid);
    expect(txids).toContain(replacement.txid);
    expect(txids).not.toContain(original.txid);
    expect(simulator.replace(original.txid)).toBeUndefined();
  });

  it('keeps only the last retainBlocks blocks, and evicted txids only as long as their blocks', () => {
    const simulator = new BitcoinSimulator({ seed: 5, retainBlocks: 20 });
    for (let i = 0; i < 300; i++) {
      const [first, second] = simulator.addRandomTransactions(2);
      simulator.replace(first!.txid);
      simulator.evict(second!.txid);
      simulator.mine(1);
    }
    expect(simulator.retained.blocks).toBe(20);
    expect(simulator.height - simulator.firstHeight + 1).toBe(20);
    expect(simulator.blockAt(simulator.firstHeight - 1)).toBeUndefined();
    for (let height = simulator.firstHeight + 1; height <= simulator.height; height++) {
      expect(simulator.blockAt(height)!.previousBlockHash).toBe(simulator.blockAt(height - 1)!.hash);
    }
    // About two evictions a block (plus expired low-fee ones) while a kept block was the tip, not 300 blocks' worth.
    expect(simulator.retained.evictedTxids).toBeGreaterThanOrEqual(30);
    expect(simulator.retained.evictedTxids).toBeLessThan(20 * 4);
  });

  it('keeps 1000 blocks by default, and at least the confirmation depth', () => {
    expect(DEFAULT_RETAINED_BLOCKS).toBe(1000);
    expect(() => new BitcoinSimulator({ seed: 1, retainBlocks: 2 })).toThrow(RangeError);
  });
});
