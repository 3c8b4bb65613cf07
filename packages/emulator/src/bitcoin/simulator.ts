import { hex } from '@scure/base';
import { parseBtc } from './amount.js';
import { type ChainState, transactionFromJson, transactionToJson } from './chain-state.js';
import { displayHash, SeededRandom, sha256d } from './random.js';
import {
  type AddressKind,
  nullDataScript,
  randomAddress,
  type ScriptPubKey,
  scriptForAddress,
} from './scripts.js';
import type { SimBlock, SimInput, SimOutput, SimTransaction } from './sim-types.js';

export type { SimBlock, SimInput, SimOutput, SimTransaction };

export interface SimulatorListener {
  /** A transaction entered the mempool. */
  mempool?(tx: SimTransaction): void;
  /** A transaction left the mempool without being mined (evicted, replaced by fee, expired). */
  evicted?(txid: string): void;
  /** A block was mined (its transactions were first seen either in the mempool or in this block). */
  block?(block: SimBlock): void;
}

export interface AddTransactionInput {
  to: string;
  amountBtc: number | string;
  from?: string;
  /** Skip the mempool: the transaction is first seen in the next mined block. */
  mined?: boolean;
}

const SUBSIDY_SATS = 312_500_000n;
const OUTPUT_KINDS: AddressKind[] = ['p2wpkh', 'p2wpkh', 'p2pkh', 'p2sh', 'p2tr'];
/** Background mempool transactions that pay too little: never mined, evicted after this many blocks. */
const LOW_FEE_EXPIRY_BLOCKS = 3;
/**
 * Blocks kept for block data and replay (about a week of Bitcoin). Older ones are dropped, so a
 * simulator mining for days holds the same memory as one mining for minutes.
 */
export const DEFAULT_RETAINED_BLOCKS = 1000;
/** The fewest blocks a simulator may keep: a block and the two mined on it, to confirm it. */
const MIN_RETAINED_BLOCKS = 3;

/**
 * A deterministic Bitcoin network: a mempool and a chain. Everything (txids, addresses, values,
 * block hashes and times) follows from the seed and the sequence of calls, never from the clock.
 */
export class BitcoinSimulator {
  private readonly random: SeededRandom;
  private readonly blocks: SimBlock[] = [];
  private readonly mempoolTxs = new Map<string, { tx: SimTransaction; lowFeeSince?: number }>();
  private readonly pendingMined: SimTransaction[] = [];
  /** Evicted txid → the height at which it was evicted; forgotten with the blocks of that time. */
  private readonly evictedTxids = new Map<string, number>();
  private readonly listeners = new Set<SimulatorListener>();
  private readonly retainBlocks: number;
  private autoTimer: NodeJS.Timeout | undefined;
  private clock: number;

  constructor(options: {
    seed: number;
    startHeight?: number;
    initialBlocks?: number;
    retainBlocks?: number;
    /** A chain saved by {@link saveChain}: mining goes on from its tip, its mempool still waits. */
    resume?: ChainState;
  }) {
    this.retainBlocks = options.retainBlocks ?? DEFAULT_RETAINED_BLOCKS;
    if (!Number.isInteger(this.retainBlocks) || this.retainBlocks < MIN_RETAINED_BLOCKS) {
      throw new RangeError(`retainBlocks must be an integer >= ${MIN_RETAINED_BLOCKS}`);
    }
    const resumed = options.resume?.blocks.at(-1);
    // Mixed with the tip, so that a restart with the same seed never mints the txids of the last run.
    this.random = new SeededRandom(resumed ? options.seed ^ resumed.height : options.seed);
    if (options.resume && resumed) {
      for (const block of options.resume.blocks)
        this.blocks.push({ ...block, transactions: block.transactions.map(transactionFromJson) });
      for (const { tx, lowFeeSince } of options.resume.mempool)
        this.mempoolTxs.set(tx.txid, {
          tx: transactionFromJson(tx),
          ...(lowFeeSince === undefined ? {} : { lowFeeSince }),
        });
      this.pendingMined.push(...options.resume.pendingMined.map(transactionFromJson));
      this.clock = resumed.timestamp;
      return;
    }
    const startHeight = options.startHeight ?? 880_000 + (Math.abs(options.seed) % 10_000);
    this.clock = 1_735_689_600 + (startHeight - 880_000) * 600;
    this.blocks.push(this.buildBlock(startHeight, '0'.repeat(64), []));
    for (let i = 1; i < (options.initialBlocks ?? 6); i++) this.mineOne();
  }

  /** The last `blocks` blocks and the mempool, for a state file (the `resume` option takes them back). */
  saveChain(blocks: number): ChainState {
    return {
      blocks: this.blocks.slice(-blocks).map((block) => ({
        ...block,
        transactions: block.transactions.map(transactionToJson),
      })),
      mempool: [...this.mempoolTxs.values()].map(({ tx, lowFeeSince }) => ({
        tx: transactionToJson(tx),
        ...(lowFeeSince === undefined ? {} : { lowFeeSince }),
      })),
      pendingMined: this.pendingMined.map(transactionToJson),
    };
  }

  subscribe(listener: SimulatorListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get tip(): SimBlock {
    return this.blocks.at(-1)!;
  }

  get height(): number {
    return this.tip.height;
  }

  blockAt(height: number): SimBlock | undefined {
    return this.blocks[height - this.blocks[0]!.height];
  }

  get firstHeight(): number {
    return this.blocks[0]!.height;
  }

  /** How much the simulator holds now (for tests of its memory bounds). */
  get retained(): { blocks: number; evictedTxids: number } {
    return { blocks: this.blocks.length, evictedTxids: this.evictedTxids.size };
  }

  mempool(): SimTransaction[] {
    return [...this.mempoolTxs.values()].map((entry) => entry.tx);
  }

  /** Whether the transaction was evicted while one of the retained blocks was the tip. */
  isEvicted(txid: string): boolean {
    return this.evictedTxids.has(txid);
  }

  /** A payment to `to` (from `from`, or a random sender) with change back to the sender. */
  addTransaction(input: AddTransactionInput): SimTransaction {
    const to = scriptForAddress(input.to);
    const amount = parseBtc(input.amountBtc);
    const from = input.from === undefined ? undefined : scriptForAddress(input.from).address!;
    const tx = this.buildPayment(from ?? this.randomAddressOf('p2wpkh'), [{ script: to, valueSats: amount }]);
    if (input.mined) this.pendingMined.push(tx);
    else this.enterMempool(tx);
    return tx;
  }

  /** Random background activity entering the mempool; some of it pays too little and is later evicted. */
  addRandomTransactions(count: number): SimTransaction[] {
    const txs: SimTransaction[] = [];
    for (let i = 0; i < count; i++) {
      const tx = this.randomTransaction();
      this.enterMempool(tx, this.random.int(1, 6) === 1);
      txs.push(tx);
    }
    return txs;
  }

  /**
   * Replace-by-fee: the same input spent again with a higher fee (taken from the change output),
   * under a new txid. The replaced transaction leaves the mempool and never confirms.
   */
  replace(txid: string): SimTransaction | undefined {
    const entry = this.mempoolTxs.get(txid);
    if (!entry) return undefined;
    const { tx } = entry;
    const change = tx.vout.at(-1)!;
    const bump = BigInt(tx.vsize * this.random.int(1, 10));
    if (change.valueSats <= bump) return undefined;
    this.evict(txid);
    const replacement = this.finish({
      vin: tx.vin.map((input) => ({ ...input, sequence: 0xfffffffd })),
      vout: tx.vout.map((output) =>
        output === change ? { ...output, valueSats: output.valueSats - bump } : { ...output },
      ),
      feeSats: tx.feeSats + bump,
    });
    this.enterMempool(replacement);
    return replacement;
  }

  mine(blocks: number): SimBlock[] {
    const mined: SimBlock[] = [];
    for (let i = 0; i < blocks; i++) mined.push(this.mineOne());
    return mined;
  }

  evict(txid: string): boolean {
    if (!this.mempoolTxs.delete(txid)) return false;
    this.evictedTxids.set(txid, this.height);
    for (const listener of this.listeners) listener.evicted?.(txid);
    return true;
  }

  /**
   * Mines a block every `intervalMs` after injecting a few random transactions (now and then one is
   * replaced by fee, some pay too little and are evicted later); 0 stops.
   */
  auto(intervalMs: number): void {
    if (this.autoTimer) clearInterval(this.autoTimer);
    this.autoTimer = undefined;
    if (intervalMs > 0) {
      this.autoTimer = setInterval(() => {
        try {
          const [first] = this.addRandomTransactions(this.random.int(1, 3));
          // Now and then a payment is replaced by a higher-fee version before it is mined.
          if (first && this.random.int(1, 5) === 1) this.replace(first.txid);
          this.mine(1);
        } catch (error) {
          // A timer has nobody to answer: an exception here would end the process.
          console.error('[blockwire-emulator] auto mining failed:', error);
        }
      }, intervalMs);
      this.autoTimer.unref?.();
    }
  }

  close(): void {
    this.auto(0);
    this.listeners.clear();
  }

  private mineOne(): SimBlock {
    const height = this.tip.height + 1;
    const included: SimTransaction[] = [];
    for (const [txid, entry] of this.mempoolTxs) {
      if (entry.lowFeeSince === undefined) {
        included.push(entry.tx);
        this.mempoolTxs.delete(txid);
      } else if (height - entry.lowFeeSince > LOW_FEE_EXPIRY_BLOCKS) {
        this.evict(txid);
      }
    }
    included.push(...this.pendingMined.splice(0));
    // Transactions nobody saw in the mempool: they are first seen in this block.
    for (let i = this.random.int(1, 2); i > 0; i--) included.push(this.randomTransaction());
    const block = this.buildBlock(height, this.tip.hash, included);
    this.blocks.push(block);
    this.prune();
    for (const listener of this.listeners) listener.block?.(block);
    return block;
  }

  /** Drops the blocks beyond the window, and what is remembered about their time. */
  private prune(): void {
    const excess = this.blocks.length - this.retainBlocks;
    if (excess > 0) this.blocks.splice(0, excess);
    // Evictions were recorded in height order: the oldest come first.
    for (const [txid, height] of this.evictedTxids) {
      if (height >= this.firstHeight) break;
      this.evictedTxids.delete(txid);
    }
  }

  private enterMempool(tx: SimTransaction, lowFee = false): void {
    this.mempoolTxs.set(tx.txid, lowFee ? { tx, lowFeeSince: this.height } : { tx });
    for (const listener of this.listeners) listener.mempool?.(tx);
  }

  private buildBlock(height: number, previousBlockHash: string, txs: SimTransaction[]): SimBlock {
    this.clock += this.random.int(300, 900);
    const fees = txs.reduce((sum, tx) => sum + tx.feeSats, 0n);
    const coinbase = this.coinbase(height, SUBSIDY_SATS + fees);
    const transactions = [coinbase, ...txs];
    const merkleRoot = merkle(transactions.map((tx) => tx.txid));
    const nonce = this.random.int(0, 2 ** 32 - 1);
    const header = sha256d(`${previousBlockHash}${merkleRoot}${this.clock}${nonce}`);
    return {
      height,
      // Real block hashes start with many zeros (proof of work); this one only looks the part.
      hash: '00000000000000000002' + displayHash(header).slice(20),
      previousBlockHash,
      timestamp: this.clock,
      difficulty: 126_411_437_451_912.2,
      bits: '17025ced',
      nonce,
      version: 0x20000000,
      merkleRoot,
      size: 80 + transactions.reduce((sum, tx) => sum + tx.size, 0),
      transactions,
    };
  }

  private coinbase(height: number, rewardSats: bigint): SimTransaction {
    const heightScript = Buffer.alloc(4);
    heightScript.writeUInt32LE(height);
    const coinbaseHex = '03' + heightScript.subarray(0, 3).toString('hex') + hex.encode(this.random.bytes(8));
    const commitment = new Uint8Array([0xaa, 0x21, 0xa9, 0xed, ...this.random.bytes(32)]);
    return this.finish({
      vin: [
        {
          txid: '0'.repeat(64),
          vout: 0xffffffff,
          address: null,
          valueSats: null,
          sequence: 0xffffffff,
          scriptSigHex: coinbaseHex,
          witness: ['00'.repeat(32)],
          coinbase: coinbaseHex,
        },
      ],
      vout: [
        { n: 0, valueSats: rewardSats, script: scriptForAddress(this.randomAddressOf('p2wpkh')) },
        { n: 1, valueSats: 0n, script: nullDataScript(commitment) },
      ],
      feeSats: 0n,
    });
  }

  private randomTransaction(): SimTransaction {
    const recipients: { script: ScriptPubKey; valueSats: bigint }[] = [];
    for (let i = this.random.int(1, 3); i > 0; i--) {
      const address = this.randomAddressOf(this.random.pick(OUTPUT_KINDS));
      recipients.push({
        script: scriptForAddress(address),
        valueSats: BigInt(this.random.int(5_000, 250_000_000)),
      });
    }
    let inputs = 1;
    if (this.random.int(1, 4) === 1) {
      recipients.push({ script: nullDataScript(this.random.bytes(this.random.int(8, 40))), valueSats: 0n });
      // The spec's coinbase rule is "one input and an OP_RETURN output": a payment carrying
      // OP_RETURN spends two outputs, so only the coinbase matches that rule here.
      inputs = 2;
    }
    return this.buildPayment(this.randomAddressOf(this.random.pick(OUTPUT_KINDS)), recipients, inputs);
  }

  private buildPayment(
    from: string,
    recipients: { script: ScriptPubKey; valueSats: bigint }[],
    inputs = 1,
  ): SimTransaction {
    const vsize = 11 + 68 * inputs + 31 * (recipients.length + 1);
    const feeSats = BigInt(vsize * this.random.int(2, 40));
    const changeSats = BigInt(this.random.int(10_000, 50_000_000));
    const spent = recipients.reduce((sum, r) => sum + r.valueSats, 0n) + changeSats + feeSats;
    const outputs = [...recipients, { script: scriptForAddress(from), valueSats: changeSats }];
    // Split what is spent over the inputs; every input spends a non-zero output of the sender.
    const shares: bigint[] = [];
    let left = spent;
    for (let i = inputs; i > 1; i--) {
      const share = (left * BigInt(this.random.int(20, 80))) / 100n || 1n;
      shares.push(share);
      left -= share;
    }
    shares.push(left);
    return this.finish({
      vin: shares.map((valueSats) => ({
        txid: displayHash(this.random.bytes(32)),
        vout: this.random.int(0, 3),
        address: from,
        valueSats,
        sequence: 0xfffffffd,
        ...this.unlocking(from),
      })),
      vout: outputs.map((output, n) => ({ n, valueSats: output.valueSats, script: output.script })),
      feeSats,
    });
  }

  /** What spends an output of `address`: a scriptSig and/or witness shaped like its script type. */
  private unlocking(address: string): { scriptSigHex: string; witness: string[] } {
    // A DER signature (0x30…, SIGHASH_ALL) and a compressed public key (0x02/0x03…): random, for show.
    const r = this.random.bytes(32).map((byte, i) => (i === 0 ? byte & 0x7f : byte));
    const s = this.random.bytes(32).map((byte, i) => (i === 0 ? byte & 0x7f : byte));
    const signature = hex.encode(new Uint8Array([0x30, 0x44, 0x02, 0x20, ...r, 0x02, 0x20, ...s, 0x01]));
    const publicKey = hex.encode(new Uint8Array([0x02 + this.random.int(0, 1), ...this.random.bytes(32)]));
    const push = (data: string) => (data.length / 2).toString(16).padStart(2, '0') + data;
    switch (scriptForAddress(address).type) {
      case 'pubkeyhash':
        return { scriptSigHex: push(signature) + push(publicKey), witness: [] };
      case 'scripthash':
        // P2SH-wrapped P2WPKH: the scriptSig pushes the redeem script, the witness signs.
        return {
          scriptSigHex: push(`0014${hex.encode(this.random.bytes(20))}`),
          witness: [signature, publicKey],
        };
      case 'witness_v1_taproot':
        return { scriptSigHex: '', witness: [hex.encode(this.random.bytes(64))] };
      default:
        return { scriptSigHex: '', witness: [signature, publicKey] };
    }
  }

  private finish(parts: Pick<SimTransaction, 'vin' | 'vout' | 'feeSats'>): SimTransaction {
    const vsize = 11 + 68 * parts.vin.length + 31 * parts.vout.length;
    return {
      txid: displayHash(sha256d(this.random.bytes(32))),
      version: 2,
      locktime: 0,
      vsize,
      size: vsize + 110,
      weight: vsize * 4 - 2,
      ...parts,
      seenAt: this.clock + this.random.int(1, 299),
    };
  }

  private randomAddressOf(kind: AddressKind): string {
    return randomAddress(kind, this.random.bytes(32));
  }
}

/** The Bitcoin merkle root over txids (display order in, display order out). */
function merkle(txids: string[]): string {
  let level: Buffer[] = txids.map((txid) => Buffer.from(txid, 'hex').reverse());
  while (level.length > 1) {
    const next: Buffer[] = [];
    for (let i = 0; i < level.length; i += 2) {
      const right = level[i + 1] ?? level[i]!;
      next.push(sha256d(Buffer.concat([level[i]!, right])));
    }
    level = next;
  }
  return Buffer.from(level[0]!).reverse().toString('hex');
}
