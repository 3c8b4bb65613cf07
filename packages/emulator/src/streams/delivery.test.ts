import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  bitcoinDeliveryStage,
  btcToSats,
  isCoinbaseTransaction,
  parseBitcoinWebhook,
} from '@blockwire/streams';
import { afterEach, describe, expect, it } from 'vitest';
import { type ReceivedRequest, referenceKeccak256, waitFor } from '../delivery/test-support.js';
import type { Streams } from './service.js';
import { type Harness, startHarness } from './test-helpers.js';

const ZPUB =
  'zpub6rFR7y4Q2AijBEqTUquhVz398htDFrtymD9xYYfG1m4wAcvPhXNfE3EfH1r1ADqtfSdVCToUG868RvUUkgDKf31mGDtKsAYz2oz2AGutZYs';
const WATCHED = '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2';
const OTHER = '3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy';

let harness: Harness;
afterEach(() => harness?.close());

/** A stream watching WATCHED, verified by the receiver. */
async function watchingStream(config: Record<string, unknown> = {}) {
  const { body: stream } = await harness.call('createBitcoinStream', {
    webhookUrl: harness.receiver.url,
    includeInputs: true,
    includeOutputs: true,
    ...config,
  });
  expect(stream.status).toBe('active');
  await harness.call('addBitcoinStreamAddress', { id: stream.id, address: WATCHED });
  return stream as { id: string };
}

const engine = () => (harness.service as Streams).engine;
const stageOf = (request: ReceivedRequest) => bitcoinDeliveryStage(parseBitcoinWebhook(request.json));
/** The stages delivered for a txid, in arrival order. */
const stagesFor = (txid: string) =>
  harness.receiver
    .deliveries()
    .filter((request) => request.json.transactions.some((tx: { txid: string }) => tx.txid === txid))
    .map(stageOf);

describe('webhook delivery', () => {
  it('sends the verification POST with an empty body on create, and errors the stream when it is refused', async () => {
    harness = await startHarness();
    await watchingStream();
    expect(harness.receiver.requests).toHaveLength(1);
    expect(harness.receiver.requests[0]).toMatchObject({ method: 'POST', raw: '' });
    harness.receiver.respond(() => 503);
    const { body: refused } = await harness.call('createBitcoinStream', { webhookUrl: harness.receiver.url });
    expect(refused.status).toBe('error');
    expect(refused.statusMessage).toMatch(/503/);
    expect(refused.isErrorSince).toEqual(expect.any(String));
  });

  it('gives up on a verification POST that gets no answer within its timeout', async () => {
    harness = await startHarness({ verificationTimeoutMs: 100 });
    const silent = createServer(() => {
      // Never answers.
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const webhookUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/`;
      const { body } = await harness.call('createBitcoinStream', { webhookUrl });
      expect(body.status).toBe('error');
      expect(body.statusMessage).toMatch(/Verification POST .* failed/);
    } finally {
      silent.closeAllConnections();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it('verifies again on update and on reactivation; a passing verification clears the error', async () => {
    harness = await startHarness();
    const stream = await watchingStream();
    await harness.call('updateBitcoinStream', { id: stream.id, description: 'new' });
    expect(harness.receiver.requests.filter((request) => request.raw === '')).toHaveLength(2);
    await harness.call('setBitcoinStreamStatus', { id: stream.id, status: 'paused' });
    harness.receiver.respond(() => 500);
    const { body: failed } = await harness.call('setBitcoinStreamStatus', {
      id: stream.id,
      status: 'active',
    });
    expect(failed).toMatchObject({ status: 'error', isErrorSince: expect.any(String) });
    harness.receiver.respond(() => 200);
    const { body: resumed } = await harness.call('setBitcoinStreamStatus', {
      id: stream.id,
      status: 'active',
    });
    expect(resumed).toMatchObject({ status: 'active', isErrorSince: null });
    expect(harness.receiver.requests.filter((request) => request.raw === '')).toHaveLength(4);
  });

  it('signs every delivery: 0x + keccak256(JSON.stringify(body) + secretKey), checked independently', async () => {
    harness = await startHarness();
    await harness.call('updateSettings', { secretKey: 'our shared secret' });
    await watchingStream();
    await harness.service.control.addTransaction({ to: WATCHED, amountBtc: '0.25' });
    await harness.service.control.mine({ blocks: 3 });
    const deliveries = await waitFor(
      () => harness.receiver.deliveries().length >= 3 && harness.receiver.deliveries(),
    );
    for (const delivery of deliveries) {
      expect(delivery.headers['x-signature']).toBe(
        `0x${referenceKeccak256(delivery.raw + 'our shared secret')}`,
      );
      expect(delivery.raw).toBe(JSON.stringify(delivery.json));
    }
  });

  it('delivers mempool, in-block, then confirmed after 2 more blocks, each once and in that order', async () => {
    harness = await startHarness();
    const stream = await watchingStream();
    const { txid } = await harness.service.control.addTransaction({ to: WATCHED, amountBtc: '0.12345678' });
    const [mempool] = await waitFor(() => stagesFor(txid).length === 1 && harness.receiver.deliveries());
    expect(mempool!.json).toMatchObject({
      streamId: stream.id,
      chainId: 'mainnet',
      confirmed: false,
      retries: 0,
      block: { height: '0', hash: 'mempool' },
    });
    const minedAt = (await harness.service.control.mine({ blocks: 1 })).height;
    await waitFor(() => stagesFor(txid).length === 2);
    await harness.service.control.mine({ blocks: 1 });
    await engine().idle();
    expect(stagesFor(txid)).toEqual(['mempool', 'in-block']);
    await harness.service.control.mine({ blocks: 1 });
    await waitFor(() => stagesFor(txid).length === 3);
    await harness.service.control.mine({ blocks: 3 });
    await engine().idle();
    expect(stagesFor(txid)).toEqual(['mempool', 'in-block', 'confirmed']);
    const [, inBlock, confirmed] = harness.receiver
      .deliveries()
      .filter((request) => request.json.transactions.some((tx: { txid: string }) => tx.txid === txid));
    expect(inBlock!.json.block.height).toBe(String(minedAt));
    expect(confirmed!.json.block).toEqual(inBlock!.json.block);
    expect(confirmed!.json.confirmed).toBe(true);
    // Values are decimal BTC, exact to the satoshi.
    const tx = mempool!.json.transactions[0];
    expect(btcToSats(tx.vout[0].value)).toBe(12_345_678n);
    expect(tx.vout[0]).toMatchObject({ address: WATCHED, scriptPubKey: { type: 'pubkeyhash' } });
  });

  it('fills input addresses and values in mempool payloads only', async () => {
    harness = await startHarness();
    await watchingStream();
    const { txid } = await harness.service.control.addTransaction({ to: WATCHED, amountBtc: 1, from: OTHER });
    await harness.service.control.mine({ blocks: 3 });
    await waitFor(() => stagesFor(txid).length === 3);
    const [mempool, inBlock, confirmed] = harness.receiver
      .deliveries()
      .map((request) => request.json.transactions[0]);
    expect(mempool.vin[0]).toMatchObject({ address: OTHER, value: expect.any(Number) });
    for (const tx of [inBlock, confirmed]) {
      expect(tx.vin[0]).toMatchObject({ address: null, value: null, txid: mempool.vin[0].txid });
      expect(tx.vout).toEqual(mempool.vout);
    }
  });

  it('matches a watched sender as well as a watched recipient', async () => {
    harness = await startHarness();
    await watchingStream();
    const { txid } = await harness.service.control.addTransaction({ to: OTHER, amountBtc: 1, from: WATCHED });
    await waitFor(() => stagesFor(txid).length === 1);
  });

  it('skips the mempool step for a transaction first seen in a block', async () => {
    harness = await startHarness();
    await watchingStream();
    const { txid } = await harness.service.control.addTransaction({ to: WATCHED, amountBtc: 2, mined: true });
    await harness.service.control.mine({ blocks: 3 });
    await waitFor(() => stagesFor(txid).length === 2);
    await engine().idle();
    expect(stagesFor(txid)).toEqual(['in-block', 'confirmed']);
  });

  it('never confirms an evicted transaction', async () => {
    harness = await startHarness();
    await watchingStream();
    const { txid } = await harness.service.control.addTransaction({ to: WATCHED, amountBtc: 3 });
    await waitFor(() => stagesFor(txid).length === 1);
    expect(await harness.service.control.evict({ txid })).toEqual({ evicted: true });
    expect(await harness.service.control.evict({ txid })).toEqual({ evicted: false });
    const { txid: later } = await harness.service.control.addTransaction({ to: WATCHED, amountBtc: 4 });
    await harness.service.control.mine({ blocks: 3 });
    await waitFor(() => stagesFor(later).length === 3);
    expect(stagesFor(txid)).toEqual(['mempool']);
  });

  it('counts retries in the payload until the receiver answers 200', async () => {
    harness = await startHarness({ retryDelaysMs: [10, 10, 10, 10] });
    await watchingStream();
    let failures = 2;
    harness.receiver.respond((request) => (request.raw !== '' && failures-- > 0 ? 500 : 200));
    const { txid } = await harness.service.control.addTransaction({ to: WATCHED, amountBtc: 1 });
    const attempts = await waitFor(() => stagesFor(txid).length === 3 && harness.receiver.deliveries());
    expect(attempts.map((request) => request.json.retries)).toEqual([0, 1, 2]);
    const withoutRetries = attempts.map((request) => ({ ...request.json, retries: 0 }));
    expect(withoutRetries[1]).toEqual(withoutRetries[0]);
    expect(attempts[1]!.headers['x-signature']).not.toBe(attempts[0]!.headers['x-signature']);
  });

  it('puts the stream in error after a bounded number of failed attempts, then sends nothing', async () => {
    let changes = 0;
    harness = await startHarness({ retryDelaysMs: [5, 5], onChange: () => changes++ });
    const stream = await watchingStream();
    harness.receiver.respond((request) => (request.raw === '' ? 200 : 500));
    await harness.service.control.addTransaction({ to: WATCHED, amountBtc: 1 });
    await waitFor(() => harness.receiver.deliveries().length === 3);
    await engine().idle();
    const { body } = await harness.call('getBitcoinStream', { id: stream.id });
    expect(body).toMatchObject({ status: 'error', isErrorSince: expect.any(String) });
    expect(body.statusMessage).toMatch(/3 attempts.*HTTP 500/);
    expect(changes).toBe(1);
    await harness.service.control.mine({ blocks: 3 });
    await engine().idle();
    expect(harness.receiver.deliveries()).toHaveLength(3);
  });

  it('sends nothing to a paused stream', async () => {
    harness = await startHarness();
    const stream = await watchingStream();
    await harness.call('setBitcoinStreamStatus', { id: stream.id, status: 'paused' });
    await harness.service.control.addTransaction({ to: WATCHED, amountBtc: 1 });
    await harness.service.control.mine({ blocks: 3 });
    await engine().idle();
    expect(harness.receiver.deliveries()).toEqual([]);
  });

  it('matches addresses derived from an xpub, on the receive and the change chain, and widens the gap window', async () => {
    harness = await startHarness();
    const { body: stream } = await harness.call('createBitcoinStream', { webhookUrl: harness.receiver.url });
    const { body: xpub } = await harness.call('addBitcoinStreamXpub', { id: stream.id, xpub: ZPUB });
    const receive19 = xpub.receiveAddresses[19];
    const { txid: toReceive } = await harness.service.control.addTransaction({ to: receive19, amountBtc: 1 });
    const { txid: fromChange } = await harness.service.control.addTransaction({
      to: OTHER,
      amountBtc: 1,
      from: 'bc1q8c6fshw2dlwun7ekn9qwf37cu2rn755upcp6el',
    });
    await waitFor(() => stagesFor(toReceive).length === 1 && stagesFor(fromChange).length === 1);
    const { body: after } = await harness.call('listBitcoinStreamXpubs', { id: stream.id });
    expect(after.result[0].receiveAddresses).toHaveLength(40);
    expect(after.result[0].changeAddresses).toHaveLength(21);
  });

  it('shapes transactions with includeInputs and includeOutputs', async () => {
    harness = await startHarness();
    await watchingStream({ includeInputs: false, includeOutputs: false });
    const { txid } = await harness.service.control.addTransaction({ to: WATCHED, amountBtc: 1 });
    const [delivery] = await waitFor(() => stagesFor(txid).length === 1 && harness.receiver.deliveries());
    expect(delivery!.json.transactions[0]).toMatchObject({
      txid,
      vin: [],
      vout: [],
      addresses: expect.arrayContaining([WATCHED]),
    });
  });

  it('delivers every transaction to an allAddresses stream, coinbase included', async () => {
    harness = await startHarness();
    await watchingStream({ allAddresses: true });
    const { height } = await harness.service.control.mine({ blocks: 1 });
    // Mining also confirms the block 2 below the new tip: pick the in-block delivery of the new one.
    const delivery = await waitFor(() =>
      harness.receiver.deliveries().find((request) => request.json.block.height === String(height)),
    );
    expect(delivery.json.confirmed).toBe(false);
    const block = (
      await harness.call('getBitcoinBlockWebhookData', { chainId: 'mainnet', blockNumber: height })
    ).body;
    expect(delivery.json.transactions.map((tx: { txid: string }) => tx.txid)).toEqual(
      block.transactions.map((tx: { txid: string }) => tx.txid),
    );
    const coinbase = delivery.json.transactions[0];
    expect(isCoinbaseTransaction(coinbase)).toBe(true);
    expect(coinbase.isCoinbase).toBe(false);
  });

  it('returns from the block-data endpoint what a replay delivers for the same past block', async () => {
    harness = await startHarness();
    const stream = await watchingStream({ allAddresses: true, tag: 'replay' });
    await harness.call('setBitcoinStreamStatus', { id: stream.id, status: 'paused' });
    const { height } = await harness.service.control.mine({ blocks: 3 });
    await harness.call('setBitcoinStreamStatus', { id: stream.id, status: 'active' });
    const past = height - 2;
    const { body: data } = await harness.call('getBitcoinBlockWebhookData', {
      chainId: 'mainnet',
      blockNumber: past,
    });
    expect(data.confirmed).toBe(true);
    expect(
      (
        await harness.call('replayBitcoinBlock', {
          chainId: 'mainnet',
          blockNumber: past,
          streamId: stream.id,
        })
      ).status,
    ).toBe(200);
    const [replayed] = await waitFor(
      () => harness.receiver.deliveries().length === 1 && harness.receiver.deliveries(),
    );
    expect(replayed!.json).toEqual({ ...data, streamId: stream.id, tag: 'replay' });
    const unknown = await harness.call('getBitcoinBlockWebhookData', {
      chainId: 'mainnet',
      blockNumber: height + 1,
    });
    expect(unknown.status).toBe(404);
    const testnet = await harness.call('getBitcoinBlockWebhookData', {
      chainId: 'testnet',
      blockNumber: past,
    });
    expect(testnet).toEqual({ status: 400, body: { message: 'chainId must be mainnet' } });
  });
});
