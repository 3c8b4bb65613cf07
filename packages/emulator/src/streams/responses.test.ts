import { operations } from '@blockwire/streams/operations';
import { afterEach, describe, expect, it } from 'vitest';
import { SEEDED_EVM_STREAM_IDS } from './state.js';
import { type Harness, startHarness } from './test-helpers.js';

const ZPUB =
  'zpub6rFR7y4Q2AijBEqTUquhVz398htDFrtymD9xYYfG1m4wAcvPhXNfE3EfH1r1ADqtfSdVCToUG868RvUUkgDKf31mGDtKsAYz2oz2AGutZYs';
const ADDRESS = 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu';

let harness: Harness;
afterEach(() => harness?.close());

describe('streams service responses', () => {
  it('answers every operation of @blockwire/streams with a body its response schema accepts', async () => {
    harness = await startHarness();
    const { call, receiver } = harness;
    const created = await call('createBitcoinStream', {
      webhookUrl: receiver.url,
      description: 'all',
      tag: 't',
    });
    const id = created.body.id as string;
    const added = await call('addBitcoinStreamXpub', { id, xpub: ZPUB });
    const height = (await harness.service.control.mine({ blocks: 1 })).height;
    const inputs: Record<string, Record<string, unknown>> = {
      updateEvmStreamStatus: { id: SEEDED_EVM_STREAM_IDS[0], status: 'paused' },
      updateSettings: { region: 'eu-central-1' },
      createBitcoinStream: { webhookUrl: receiver.url },
      updateBitcoinStream: { id, description: 'changed' },
      setBitcoinStreamStatus: { id, status: 'active' },
      listBitcoinStreams: { limit: 1 },
      getBitcoinStream: { id },
      getBitcoinBlockWebhookData: { chainId: 'mainnet', blockNumber: height },
      replayBitcoinBlock: { chainId: 'mainnet', blockNumber: height, streamId: id },
      listBitcoinStreamAddresses: { id },
      addBitcoinStreamAddress: { id, address: ADDRESS },
      removeBitcoinStreamAddress: { id, address: ADDRESS },
      listBitcoinStreamXpubs: { id },
      addBitcoinStreamXpub: { id, xpub: ZPUB },
      removeBitcoinStreamXpub: { id, xpubId: added.body.id },
      deleteBitcoinStream: { id },
    };
    // Spec order, with deletion last so every call before it finds the stream.
    const ids = operations.map((operation) => operation.id).filter((opId) => opId !== 'deleteBitcoinStream');
    for (const operationId of [...ids, 'deleteBitcoinStream']) {
      const operation = operations.find((candidate) => candidate.id === operationId)!;
      expect(inputs[operationId], `an input for ${operationId}`).toBeDefined();
      const { status, body } = await call(operationId, inputs[operationId]);
      expect(status, `${operationId}: ${JSON.stringify(body)}`).toBe(200);
      const parsed = operation.response.safeParse(body);
      expect(parsed.success, `${operationId}: ${JSON.stringify(parsed.error?.issues)}`).toBe(true);
    }
    expect(Object.keys(inputs).sort()).toEqual(operations.map((operation) => operation.id).sort());
  });

  it('returns every field of the spec for a Bitcoin stream and the list envelope', async () => {
    harness = await startHarness();
    const { body: stream } = await harness.call('createBitcoinStream', { webhookUrl: harness.receiver.url });
    expect(Object.keys(stream).sort()).toEqual(
      [
        'id',
        'allAddresses',
        'demo',
        'description',
        'includeInputs',
        'includeOutputs',
        'isErrorSince',
        'network',
        'status',
        'statusMessage',
        'tag',
        'webhookUrl',
        'amountOfAddresses',
        'updatedAt',
      ].sort(),
    );
    expect(stream.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(stream.network).toEqual(['mainnet']);
    const list = await harness.call('listBitcoinStreams');
    expect(list.body).toEqual({ total: 1, result: [stream] });
  });

  it('pages lists with limit and cursor', async () => {
    harness = await startHarness();
    for (let i = 0; i < 5; i++)
      await harness.call('createBitcoinStream', { webhookUrl: harness.receiver.url, tag: `s${i}` });
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const { body } = await harness.call('listBitcoinStreams', { limit: 2, ...(cursor ? { cursor } : {}) });
      expect(body.total).toBe(5);
      expect(body.result.length).toBeLessThanOrEqual(2);
      seen.push(...body.result.map((stream: { tag: string }) => stream.tag));
      cursor = body.cursor;
    } while (cursor);
    expect(seen).toEqual(['s0', 's1', 's2', 's3', 's4']);
    const bad = await harness.call('listBitcoinStreams', { cursor: 'nonsense' });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/cursor/);
  });

  it('answers unknown ids with 404 and domain errors with 400 naming the field, leaving state unchanged', async () => {
    harness = await startHarness({ strictWebhooks: true });
    const missing = '3fa85f64-5717-4562-b3fc-2c963f66afa6';
    for (const operationId of [
      'getBitcoinStream',
      'deleteBitcoinStream',
      'listBitcoinStreamAddresses',
      'listBitcoinStreamXpubs',
    ]) {
      const { status, body } = await harness.call(operationId, { id: missing });
      expect(status).toBe(404);
      expect(body.message).toMatch(/id/);
    }
    expect((await harness.call('updateEvmStreamStatus', { id: missing, status: 'active' })).status).toBe(404);
    for (const webhookUrl of [
      'http://example.com/hook',
      'https://127.0.0.1/hook',
      'https://10.1.2.3/hook',
      'https://localhost/x',
    ]) {
      const { status, body } = await harness.call('createBitcoinStream', { webhookUrl });
      expect(status, webhookUrl).toBe(400);
      expect(body.message).toMatch(/^webhookUrl/);
    }
    // Rules the operations own (one network, one address a request) are the schemas' alone.
    const testnet = await harness.call('createBitcoinStream', {
      webhookUrl: 'https://example.com/h',
      network: ['testnet'],
    });
    expect(testnet.status).toBe(400);
    expect(testnet.body.message).toMatch(/mainnet/);
    expect((await harness.call('listBitcoinStreams')).body).toEqual({ total: 0, result: [] });
  });

  it('refuses a list of addresses on an existing stream with 400 naming address', async () => {
    harness = await startHarness();
    const { body: stream } = await harness.call('createBitcoinStream', { webhookUrl: harness.receiver.url });
    const result = await harness.call('addBitcoinStreamAddress', {
      id: stream.id,
      address: [ADDRESS, ADDRESS],
    });
    expect(result.status).toBe(400);
    expect(result.body.message).toMatch(/one address per request/);
    expect((await harness.call('listBitcoinStreamAddresses', { id: stream.id })).body.total).toBe(0);
  });

  it('changes EVM stream status and keeps settings', async () => {
    harness = await startHarness();
    const { body } = await harness.call('updateEvmStreamStatus', {
      id: SEEDED_EVM_STREAM_IDS[1].toUpperCase(),
      status: 'terminated',
    });
    expect(body).toMatchObject({ id: SEEDED_EVM_STREAM_IDS[1], status: 'terminated' });
    expect((await harness.call('updateSettings', { region: 'ap-southeast-1' })).body).toEqual({
      region: 'ap-southeast-1',
      secretKey: 'bw-emu-secret-9d3e5b7106',
    });
    expect((await harness.call('updateSettings', { secretKey: 'mine' })).body).toEqual({
      region: 'ap-southeast-1',
      secretKey: 'mine',
    });
  });

  it('lists an xpub with its derived receive and change addresses, and removes it by id', async () => {
    harness = await startHarness();
    const { body: stream } = await harness.call('createBitcoinStream', { webhookUrl: harness.receiver.url });
    const { body: xpub } = await harness.call('addBitcoinStreamXpub', { id: stream.id, xpub: ZPUB });
    expect(xpub.receiveAddresses.slice(0, 2)).toEqual([
      ADDRESS,
      'bc1qnjg0jd8228aq7egyzacy8cys3knf9xvrerkf9g',
    ]);
    expect(xpub.changeAddresses[0]).toBe('bc1q8c6fshw2dlwun7ekn9qwf37cu2rn755upcp6el');
    expect(xpub.receiveAddresses).toHaveLength(20);
    expect((await harness.call('listBitcoinStreamXpubs', { id: stream.id })).body).toMatchObject({
      total: 1,
      result: [{ id: xpub.id }],
    });
    expect((await harness.call('removeBitcoinStreamXpub', { id: stream.id, xpubId: xpub.id })).status).toBe(
      200,
    );
    expect((await harness.call('removeBitcoinStreamXpub', { id: stream.id, xpubId: xpub.id })).status).toBe(
      404,
    );
  });

  it('persists streams, settings, addresses and xpubs through a snapshot', async () => {
    harness = await startHarness();
    const { body: stream } = await harness.call('createBitcoinStream', {
      webhookUrl: harness.receiver.url,
      tag: 'kept',
    });
    await harness.call('addBitcoinStreamAddress', { id: stream.id, address: ADDRESS });
    await harness.call('addBitcoinStreamXpub', { id: stream.id, xpub: ZPUB });
    await harness.call('updateSettings', { secretKey: 'persisted' });
    const snapshot = JSON.parse(JSON.stringify(harness.service.snapshot()));
    await harness.close();
    harness = await startHarness({ state: snapshot });
    expect((await harness.call('getBitcoinStream', { id: stream.id })).body).toMatchObject({
      tag: 'kept',
      amountOfAddresses: 1,
    });
    expect((await harness.call('listBitcoinStreamXpubs', { id: stream.id })).body.total).toBe(1);
    expect((await harness.call('updateSettings', {})).body.secretKey).toBe('persisted');
  });
});
