/* eslint-disable @n8n/community-nodes/no-restricted-imports --
   Test code: runs in vitest, never inside n8n (package.json#files is dist). */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  getBitcoinStream,
  listBitcoinStreamAddresses,
  listBitcoinStreams,
  listBitcoinStreamXpubs,
} from '@blockwire/streams';
import { type IDataObject, NodeApiError, NodeOperationError } from 'n8n-workflow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BlockwireTrigger } from '../nodes/BlockwireTrigger/BlockwireTrigger.node';
import { credentialsFor, useEmulator } from './support/emulator';
import { hookContext, type SentRequest } from './support/n8n-context';

const ZPUB =
  'zpub6rFR7y4Q2AijBEqTUquhVz398htDFrtymD9xYYfG1m4wAcvPhXNfE3EfH1r1ADqtfSdVCToUG868RvUUkgDKf31mGDtKsAYz2oz2AGutZYs';
const ADDRESS_1 = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq';
const ADDRESS_2 = '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa';
/** A key the emulator does not accept. */
const REVOKED_KEY = ['revoked', 'key', '0123456789'].join('-');

const trigger = new BlockwireTrigger();
const lifecycle = trigger.webhookMethods.default;
const env = useEmulator();

/** A receiver for the verification POST, answering `status`. */
let receiver: Server;
let receiverUrl: string;
let receiverStatus = 200;
beforeAll(async () => {
  receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(receiverStatus).end());
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhook/3f1c/webhook`;
});
afterAll(async () => {
  await new Promise((resolve) => receiver.close(resolve));
});

function hook(parameters: IDataObject, staticData: IDataObject = {}, webhookUrl = receiverUrl) {
  const sent: SentRequest[] = [];
  const ctx = hookContext({
    parameters: { mode: 'bitcoin', ...parameters },
    credentials: credentialsFor(env.emulator),
    staticData,
    webhookUrl,
    sent,
  });
  return { ...ctx, sent };
}

async function streamCount(): Promise<number> {
  return (await listBitcoinStreams(env.client, { limit: 100 })).total;
}

describe('Blockwire Trigger, Bitcoin mode: the stream follows the workflow', () => {
  it('activation creates a stream for the webhook URL with the addresses, xpubs and options; deactivation deletes it', async () => {
    const {
      hook: ctx,
      staticData,
      sent,
    } = hook({
      addresses: `${ADDRESS_1},\n ${ADDRESS_2}\n`,
      xpubs: ZPUB,
      allAddresses: false,
      options: { tag: 'treasury', includeInputs: true },
    });
    expect(await lifecycle.checkExists.call(ctx)).toBe(false);
    expect(await lifecycle.create.call(ctx)).toBe(true);
    const id = staticData.streamId as string;
    const stream = await getBitcoinStream(env.client, { id });
    expect(stream).toMatchObject({
      webhookUrl: receiverUrl,
      tag: 'treasury',
      includeInputs: true,
      includeOutputs: true,
      allAddresses: false,
      status: 'active',
      description: expect.stringMatching(/^n8n workflow "Payments" \(.+\)$/),
    });
    const addresses = await listBitcoinStreamAddresses(env.client, { id });
    expect(addresses.result?.map((record) => record.address).sort()).toEqual([ADDRESS_1, ADDRESS_2].sort());
    expect((await listBitcoinStreamXpubs(env.client, { id })).result?.map((record) => record.xpub)).toEqual([
      ZPUB,
    ]);
    // Every request went through n8n's helper with the credential, never with the key in a header the SDK set.
    expect(sent.every((request) => request.credentialType === 'blockwireApi')).toBe(true);
    expect(
      sent.every(
        (request) =>
          !Object.keys(request.options.headers ?? {}).some((name) => name.toLowerCase() === 'x-api-key'),
      ),
    ).toBe(true);

    expect(await lifecycle.checkExists.call(ctx)).toBe(true);
    expect(await lifecycle.delete.call(ctx)).toBe(true);
    expect(staticData).toEqual({});
    await expect(getBitcoinStream(env.client, { id })).rejects.toMatchObject({ status: 404 });
    expect(await lifecycle.checkExists.call(ctx)).toBe(false);
  });

  it('checkExists asks the service: a stream deleted behind its back is gone (404) and forgotten', async () => {
    const { hook: ctx, staticData } = hook({ allAddresses: true });
    await lifecycle.create.call(ctx);
    const id = staticData.streamId as string;
    const other = hook({ allAddresses: true }, { streamId: id });
    await lifecycle.delete.call(other.hook);
    expect(await lifecycle.checkExists.call(ctx)).toBe(false);
    expect(staticData.streamId).toBeUndefined();
    // Deleting again (deactivation after the stream vanished) is fine.
    expect(await lifecycle.delete.call(hook({ allAddresses: true }, { streamId: id }).hook)).toBe(true);
  });

  it('a stream that points at another URL (WEBHOOK_URL changed) is replaced, not kept', async () => {
    const { hook: ctx, staticData } = hook({ allAddresses: true });
    await lifecycle.create.call(ctx);
    const id = staticData.streamId as string;
    const moved = hook({ allAddresses: true }, staticData, `${receiverUrl}-moved`);
    expect(await lifecycle.checkExists.call(moved.hook)).toBe(false);
    await expect(getBitcoinStream(env.client, { id })).rejects.toMatchObject({ status: 404 });
  });

  it('resumes a stream the service put in error (its receiver failed) when n8n checks it again', async () => {
    receiverStatus = 500;
    const { hook: ctx, staticData, logger } = hook({ allAddresses: true });
    try {
      await lifecycle.create.call(ctx);
    } finally {
      receiverStatus = 200;
    }
    const id = staticData.streamId as string;
    expect((await getBitcoinStream(env.client, { id })).status).toBe('error');
    expect(await lifecycle.checkExists.call(ctx)).toBe(true);
    expect((await getBitcoinStream(env.client, { id })).status).toBe('active');
    expect(logger.infos.join('\n')).toMatch(/resuming Bitcoin stream/);
    await lifecycle.delete.call(ctx);
  });

  it('refuses bad addresses and xpubs before creating anything, naming the entry', async () => {
    const before = await streamCount();
    const { hook: ctx } = hook({
      addresses: `${ADDRESS_1}\ntb1qcr8te4kr609gcawutmrza0j4xv80jy8zmfp6l0`,
      xpubs:
        'xprv9s21ZrQH143K3QTDL4LXw2F7HEK3wJUD2nW2nRk4stbPy6cq3jPPqjiChkVvvNKmPGJxWUtg6LnF5kejMRNNU3TGtRBeJgk33yuGBxrMPHi',
    });
    const error = await lifecycle.create.call(ctx).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NodeOperationError);
    expect((error as Error).message).toMatch(/^Addresses \(entry 2\): tb1q\S+ is a testnet address/);
    expect((error as Error).message).toMatch(/Extended Public Keys \(entry 1\): xprv9s21ZrQH…/);
    expect(await streamCount()).toBe(before);
  });

  it('keeps a hostile 40,000-character address out of the message in full', async () => {
    const error = await lifecycle.create
      .call(hook({ addresses: 'bc1q'.padEnd(40_000, 'x') }).hook)
      .catch((e: unknown) => e);
    expect((error as Error).message).toMatch(/^Addresses \(entry 1\): bc1qxxxxxxxx…xxxxxxxx /);
    expect((error as Error).message.length).toBeLessThan(300);
  });

  it('refuses an empty watch list unless All Addresses is on', async () => {
    const error = await lifecycle.create.call(hook({ addresses: ' , \n' }).hook).catch((e: unknown) => e);
    expect((error as Error).message).toMatch(
      /Addresses: are empty: watch at least one address or extended public key, or turn on All Addresses/,
    );
  });

  it('refuses a webhook URL the real service could never reach, before any request, and explains the fix', async () => {
    const sent: SentRequest[] = [];
    const { hook: ctx } = hookContext({
      parameters: { mode: 'bitcoin', allAddresses: true },
      credentials: { apiKey: 'k', webhookSecret: 's' },
      webhookUrl: 'http://localhost:5678/webhook/abc/webhook',
      sent,
    });
    const error = await lifecycle.create.call(ctx).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NodeOperationError);
    expect((error as Error).message).toBe(
      'Blockwire cannot deliver to http://localhost:5678/webhook/abc/webhook: webhookUrl must be a public HTTPS endpoint, not http',
    );
    expect((error as NodeOperationError).description).toMatch(/WEBHOOK_URL/);
    expect(sent).toEqual([]);
    const https = hookContext({
      parameters: { mode: 'bitcoin', allAddresses: true },
      credentials: { apiKey: 'k', webhookSecret: 's' },
      webhookUrl: 'https://192.168.1.20/webhook/abc/webhook',
    });
    expect(((await lifecycle.create.call(https.hook).catch((e: unknown) => e)) as Error).message).toMatch(
      /192\.168\.1\.20 is not public/,
    );
  });

  it('refuses to activate without a webhook secret (every delivery would be refused)', async () => {
    const { hook: ctx } = hookContext({
      parameters: { mode: 'evm' },
      credentials: { ...credentialsFor(env.emulator), webhookSecret: '' },
      webhookUrl: receiverUrl,
    });
    expect(await lifecycle.checkExists.call(ctx)).toBe(false);
    await expect(lifecycle.create.call(ctx)).rejects.toThrow(/no Webhook Secret/);
  });

  it('EVM mode registers nothing at the service', async () => {
    const before = await streamCount();
    const { hook: ctx, sent } = hook({ mode: 'evm' });
    expect(await lifecycle.checkExists.call(ctx)).toBe(false);
    expect(await lifecycle.create.call(ctx)).toBe(true);
    expect(await lifecycle.delete.call(ctx)).toBe(true);
    expect(sent).toEqual([]);
    expect(await streamCount()).toBe(before);
  });

  it('a wrong API key is a NodeApiError that says so and never shows the key', async () => {
    const { hook: ctx } = hookContext({
      parameters: { mode: 'bitcoin', allAddresses: true },
      credentials: { ...credentialsFor(env.emulator), apiKey: REVOKED_KEY },
      webhookUrl: receiverUrl,
    });
    const error = await lifecycle.create.call(ctx).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NodeApiError);
    expect((error as NodeApiError).httpCode).toBe('401');
    expect((error as NodeApiError).description).toMatch(/Check the API Key/);
    expect(JSON.stringify(error)).not.toContain(REVOKED_KEY);
  });
});
