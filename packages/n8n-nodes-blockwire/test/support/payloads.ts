import { type BitcoinDeliveryStage, signBody } from '@blockwire/streams';

export const STREAM_ID = '6f1c2a9e-3b7d-4c1e-9a8f-2d5b7e0c4a31';
export const SECRET = 'test-webhook-secret';
export const WATCHED = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq';
const OTHER = 'bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh';
export const BLOCK = {
  height: '870000',
  hash: '0000000000000000000160d4c5dbc3fde3e2bb8e4e6b3a0e5b9b1c4b0c5e1f2a',
};

export function txid(n: number): string {
  return n.toString(16).padStart(64, 'a');
}

/** A payment of 0.001 BTC plus 0.00148588 change, fee 0.00001412. */
export function payment(id: string, stage: BitcoinDeliveryStage) {
  const mined = stage !== 'mempool';
  return {
    txid: id,
    vin: [{ txid: 'c0'.repeat(32), vout: 1, address: mined ? null : WATCHED, value: mined ? null : 0.0025 }],
    vout: [
      { value: 0.001, n: 0, address: OTHER, scriptPubKey: { type: 'witness_v0_keyhash', address: OTHER } },
      { value: 0.00148588, n: 1, address: WATCHED, scriptPubKey: { type: 'witness_v0_keyhash' } },
    ],
    addresses: [WATCHED, OTHER],
    value: 0.00248588,
    fee: 0.00001412,
    isCoinbase: false,
  };
}

/** A coinbase: one input and an OP_RETURN output (its payload `isCoinbase` is false, as always). */
export function coinbase(id: string) {
  return {
    txid: id,
    vin: [{ coinbase: '0370460d04', address: null, value: null }],
    vout: [
      { value: 3.16203125, n: 0, scriptPubKey: { type: 'witness_v0_keyhash', address: WATCHED } },
      { value: 0, n: 1, scriptPubKey: { type: 'nulldata' } },
    ],
    addresses: [WATCHED],
    value: 3.16203125,
    fee: 0,
    isCoinbase: false,
  };
}

export function bitcoinDelivery(stage: BitcoinDeliveryStage, transactions: unknown[], retries = 0) {
  return {
    streamId: STREAM_ID,
    chainId: 'mainnet',
    tag: 'treasury',
    confirmed: stage === 'confirmed',
    retries,
    block: stage === 'mempool' ? { height: '0', hash: 'mempool' } : BLOCK,
    transactions,
  };
}

export function evmDelivery(confirmed: boolean, blockNumber = '21000000') {
  return {
    confirmed,
    chainId: '0x1',
    streamId: 'b3e1d2c4-5a6b-4c7d-8e9f-0a1b2c3d4e5f',
    tag: 'usdc',
    retries: 0,
    block: { number: blockNumber, hash: `0x${blockNumber.padStart(64, '0')}`, timestamp: '1731024000' },
    logs: [{ address: '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48', topic0: '0xddf2' }],
    txs: [],
  };
}

/** The raw body and headers the service would send. */
export async function signed(payload: unknown, secret = SECRET) {
  const rawBody = JSON.stringify(payload);
  return { rawBody, headers: { 'x-signature': await signBody(rawBody, secret) } };
}
