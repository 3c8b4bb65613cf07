/**
 * Bitcoin stream deliveries shaped as the spec describes them ("Bitcoin webhook payload"): the
 * mempool sentinel block, inputs whose address and value are null once in a block, decimal BTC
 * output values, `isCoinbase` always false, a coinbase = one input + an OP_RETURN output.
 * Field names the spec leaves "not shown" follow the usual Bitcoin Core JSON.
 */
import type { BitcoinDeliveryStage } from '../payloads.js';

export const STREAM_ID = '6f1c2a9e-3b7d-4c1e-9a8f-2d5b7e0c4a31';
export const CHAIN_ID = 'bitcoin-mainnet';
export const WATCHED = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq';
const OTHER = 'bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh';

export const MEMPOOL_BLOCK = { height: '0', hash: 'mempool' };
export const BLOCK_870000 = {
  height: '870000',
  hash: '0000000000000000000160d4c5dbc3fde3e2bb8e4e6b3a0e5b9b1c4b0c5e1f2a',
  timestamp: 1731024000,
  difficulty: 101646843652785.2,
  merkleRoot: '3d4f6a1b2c9e8d7f0a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f6071',
  transactionCount: 3172,
};

export function txidOf(n: number): string {
  return n.toString(16).padStart(64, 'a');
}

/** A payment from WATCHED to OTHER with change, as a delivery of `stage` shows it. */
export function paymentTx(txid: string, stage: BitcoinDeliveryStage) {
  const mined = stage !== 'mempool';
  return {
    txid,
    hash: txid,
    version: 2,
    size: 222,
    vsize: 141,
    weight: 561,
    locktime: 0,
    vin: [
      {
        txid: 'c0ffee'.padEnd(64, '0'),
        vout: 1,
        scriptSig: { asm: '', hex: '' },
        txinwitness: ['3044022079be667e', '02c6047f9441ed7d'],
        sequence: 4294967293,
        address: mined ? null : WATCHED,
        value: mined ? null : 0.0025,
      },
    ],
    vout: [
      {
        value: 0.001,
        n: 0,
        address: OTHER,
        scriptPubKey: { asm: '0 3a1b', hex: '00143a1b', address: OTHER, type: 'witness_v0_keyhash' },
      },
      {
        value: 0.00148588,
        n: 1,
        address: WATCHED,
        scriptPubKey: { asm: '0 e8df', hex: '0014e8df', address: WATCHED, type: 'witness_v0_keyhash' },
      },
    ],
    addresses: [WATCHED, OTHER],
    value: 0.00248588,
    fee: 0.00001412,
    isCoinbase: false,
  };
}

/** The block's coinbase: one input and the witness-commitment OP_RETURN output. */
export function coinbaseTx() {
  return {
    txid: '9b0fc92260312ce44e74ef369f5c66bbb85848f2eddd5a7a1cde251e54ccfdd5',
    version: 2,
    locktime: 0,
    vin: [
      { coinbase: '0370460d04', txid: null, vout: null, sequence: 4294967295, address: null, value: null },
    ],
    vout: [
      {
        value: 3.16203125,
        n: 0,
        address: WATCHED,
        scriptPubKey: { asm: '0 e8df', hex: '0014e8df', address: WATCHED, type: 'witness_v0_keyhash' },
      },
      {
        value: 0,
        n: 1,
        address: null,
        scriptPubKey: { asm: 'OP_RETURN aa21a9ed', hex: '6a24aa21a9ed', type: 'nulldata' },
      },
    ],
    addresses: [WATCHED],
    value: 3.16203125,
    fee: 0,
    isCoinbase: false,
  };
}

/** One delivery of `stage` for the given txids. */
export function bitcoinDelivery(stage: BitcoinDeliveryStage, txids: string[], retries = 0) {
  return {
    streamId: STREAM_ID,
    chainId: CHAIN_ID,
    confirmed: stage === 'confirmed',
    block: stage === 'mempool' ? MEMPOOL_BLOCK : BLOCK_870000,
    retries,
    transactions: txids.map((txid) => paymentTx(txid, stage)),
  };
}

export const MEMPOOL_DELIVERY = bitcoinDelivery('mempool', [txidOf(1)]);
export const IN_BLOCK_DELIVERY = {
  ...bitcoinDelivery('in-block', [txidOf(1)]),
  block: BLOCK_870000,
  transactions: [coinbaseTx(), paymentTx(txidOf(1), 'in-block')],
};
export const CONFIRMED_DELIVERY = {
  ...bitcoinDelivery('confirmed', [txidOf(1)]),
  block: BLOCK_870000,
  transactions: [coinbaseTx(), paymentTx(txidOf(1), 'confirmed')],
};

/** The verification POST in its non-empty form. */
export const VERIFICATION_PAYLOAD = {
  streamId: '',
  chainId: '',
  confirmed: true,
  retries: 0,
  tag: '',
  block: { number: '', hash: '', timestamp: '' },
  logs: [],
  txs: [],
  txsInternal: [],
  abi: [],
  erc20Transfers: [],
  erc20Approvals: [],
  nftTransfers: [],
  nativeBalances: [],
};

export const EVM_DELIVERY = {
  confirmed: false,
  chainId: '0x1',
  abi: [],
  streamId: 'c2f0d2e4-8b7a-4d61-9f3e-0a1b2c3d4e5f',
  tag: 'usdc-watch',
  retries: 0,
  block: {
    number: '21000000',
    hash: '0x8f1e2d3c4b5a69788796a5b4c3d2e1f00112233445566778899aabbccddeeff0',
    timestamp: '1729000000',
  },
  logs: [
    {
      logIndex: '12',
      transactionHash: '0x1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e7f809',
      address: '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48',
      data: '0x00000000000000000000000000000000000000000000000000000000000f4240',
      topic0: '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef',
      topic1: '0x000000000000000000000000f39fd6e51aad88f6f4ce6ab8827279cfffb92266',
      topic2: '0x00000000000000000000000070997970c51812dc3a010c7d01b50e0d17dc79c8',
      topic3: null,
    },
  ],
  txs: [],
  txsInternal: [],
  erc20Transfers: [
    {
      transactionHash: '0x1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e7f809',
      contract: '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48',
      from: '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266',
      to: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8',
      value: '1000000',
      tokenSymbol: 'USDC',
      tokenDecimals: '6',
      valueWithDecimals: '1',
    },
  ],
  erc20Approvals: [],
  nftTransfers: [],
  nativeBalances: [],
};
