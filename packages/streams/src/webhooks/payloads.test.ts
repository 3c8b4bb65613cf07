import { ValidationError } from '@blockwire/core';
import { describe, expect, it } from 'vitest';
import {
  CONFIRMED_DELIVERY,
  coinbaseTx,
  EVM_DELIVERY,
  IN_BLOCK_DELIVERY,
  MEMPOOL_DELIVERY,
  paymentTx,
  txidOf,
  VERIFICATION_PAYLOAD,
} from './__fixtures__/bitcoin.js';
import {
  bitcoinDeliveryStage,
  isBitcoinWebhook,
  isCoinbaseTransaction,
  isVerificationRequest,
  parseBitcoinWebhook,
  parseEvmWebhook,
} from './payloads.js';

function validationIssues(run: () => unknown) {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return (error as ValidationError).issues.map((issue) => issue.path);
  }
  throw new Error('expected a ValidationError');
}

describe('parseBitcoinWebhook', () => {
  it('types a mempool delivery and keeps the fields it does not know', () => {
    const payload = parseBitcoinWebhook(MEMPOOL_DELIVERY);
    expect(payload.block).toEqual({ height: '0', hash: 'mempool' });
    expect(payload.confirmed).toBe(false);
    const tx = payload.transactions[0]!;
    expect(tx.vin?.[0]?.address).toBe('bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq');
    expect(tx.vout?.[0]?.scriptPubKey?.type).toBe('witness_v0_keyhash');
    expect(tx.fee).toBe(0.00001412);
    expect((tx as Record<string, unknown>).vsize).toBe(141);
    expect(payload).toEqual(MEMPOOL_DELIVERY);
  });

  it('accepts confirmed payloads whose inputs have null address and value, and raw JSON text', () => {
    const payload = parseBitcoinWebhook(JSON.stringify(CONFIRMED_DELIVERY));
    expect(payload.transactions[1]!.vin?.[0]).toMatchObject({ address: null, value: null });
    expect((payload.block as Record<string, unknown>).merkleRoot).toBe(CONFIRMED_DELIVERY.block.merkleRoot);
    expect(payload.retries).toBe(0);
  });

  it('names the path of what is wrong', () => {
    const broken = structuredClone(CONFIRMED_DELIVERY) as Record<string, unknown> & typeof CONFIRMED_DELIVERY;
    (broken.transactions[1] as Record<string, unknown>).txid = 42;
    (broken.block as Record<string, unknown>).hash = undefined;
    expect(validationIssues(() => parseBitcoinWebhook(broken))).toEqual([
      'block.hash',
      'transactions.1.txid',
    ]);
    expect(validationIssues(() => parseBitcoinWebhook({ ...MEMPOOL_DELIVERY, confirmed: 'no' }))).toEqual([
      'confirmed',
    ]);
    expect(() => parseBitcoinWebhook('{oops')).toThrow(/not valid JSON/);
    expect(() => parseBitcoinWebhook(EVM_DELIVERY)).toThrow(/Invalid Bitcoin webhook payload: block.height/);
  });
});

describe('parseEvmWebhook', () => {
  it('types an EVM delivery and keeps unknown fields', () => {
    const payload = parseEvmWebhook({ ...EVM_DELIVERY, somethingNew: { x: 1 } });
    expect(payload.block).toEqual(EVM_DELIVERY.block);
    expect(payload.logs?.[0]?.topic0).toBe(EVM_DELIVERY.logs[0]!.topic0);
    expect(payload.erc20Transfers?.[0]?.valueWithDecimals).toBe('1');
    expect((payload as Record<string, unknown>).somethingNew).toEqual({ x: 1 });
  });

  it('needs only the envelope', () => {
    expect(parseEvmWebhook({ confirmed: true, chainId: '0x89', streamId: 's' })).toEqual({
      confirmed: true,
      chainId: '0x89',
      streamId: 's',
    });
    expect(validationIssues(() => parseEvmWebhook({ chainId: '0x1', logs: 'x' }))).toEqual([
      'confirmed',
      'streamId',
      'logs',
    ]);
  });
});

describe('isVerificationRequest', () => {
  it('is true for an empty body, {} and the empty-valued payload', () => {
    for (const body of ['', '  \n', Buffer.alloc(0), undefined, null, {}, '{}', VERIFICATION_PAYLOAD]) {
      expect(isVerificationRequest(body), JSON.stringify(body)).toBe(true);
    }
    expect(isVerificationRequest(JSON.stringify(VERIFICATION_PAYLOAD))).toBe(true);
  });

  it('is false for real deliveries and for empty ids that still carry data', () => {
    for (const body of [MEMPOOL_DELIVERY, CONFIRMED_DELIVERY, EVM_DELIVERY, '{oops', '[]', 'null x']) {
      expect(isVerificationRequest(body)).toBe(false);
    }
    expect(isVerificationRequest({ ...VERIFICATION_PAYLOAD, logs: EVM_DELIVERY.logs })).toBe(false);
    expect(isVerificationRequest({ ...MEMPOOL_DELIVERY, streamId: '', chainId: '' })).toBe(false);
    expect(isVerificationRequest({ ...VERIFICATION_PAYLOAD, streamId: 'x' })).toBe(false);
  });
});

describe('bitcoinDeliveryStage', () => {
  it('reads the spec markers', () => {
    expect(bitcoinDeliveryStage(MEMPOOL_DELIVERY)).toBe('mempool');
    expect(bitcoinDeliveryStage(IN_BLOCK_DELIVERY)).toBe('in-block');
    expect(bitcoinDeliveryStage(CONFIRMED_DELIVERY)).toBe('confirmed');
    expect(() => bitcoinDeliveryStage({ confirmed: true, block: { height: '0', hash: 'mempool' } })).toThrow(
      ValidationError,
    );
  });

  it('tells Bitcoin deliveries from EVM ones', () => {
    expect(isBitcoinWebhook(MEMPOOL_DELIVERY)).toBe(true);
    expect(isBitcoinWebhook(EVM_DELIVERY)).toBe(false);
  });
});

describe('isCoinbaseTransaction', () => {
  it('is true exactly for one input and a nulldata output, whatever isCoinbase says', () => {
    const coinbase = coinbaseTx();
    expect(coinbase.isCoinbase).toBe(false);
    expect(isCoinbaseTransaction(coinbase)).toBe(true);
    expect(isCoinbaseTransaction(paymentTx(txidOf(1), 'confirmed'))).toBe(false);
    // Two inputs with an OP_RETURN: a normal transaction carrying data.
    expect(isCoinbaseTransaction({ ...coinbase, vin: [...coinbase.vin, ...coinbase.vin] })).toBe(false);
    // One input, no OP_RETURN.
    expect(isCoinbaseTransaction({ ...coinbase, vout: [coinbase.vout[0]!] })).toBe(false);
    expect(isCoinbaseTransaction({ ...paymentTx(txidOf(2), 'confirmed'), isCoinbase: true })).toBe(false);
    expect(isCoinbaseTransaction({})).toBe(false);
  });
});
