import { createClient } from '@blockwire/core';
import { DEFAULT_SECRET_KEY, type Emulator, startEmulator } from '@blockwire/emulator';
import { afterAll, beforeAll } from 'vitest';
import type { BlockwireCredentials } from '../../nodes/shared/credentials';

/** The credentials a user would save to point the nodes at this emulator. */
export function credentialsFor(emulator: Emulator): BlockwireCredentials {
  return {
    apiKey: emulator.apiKey,
    webhookSecret: DEFAULT_SECRET_KEY,
    evmBaseUrl: emulator.urls.evm,
    solanaBaseUrl: emulator.urls.solana,
    streamsBaseUrl: emulator.urls.streams,
    nodeBaseUrl: emulator.urls.node,
  };
}

/** An emulator (no anvil) for every test of a file, and a plain SDK client to look at its state. */
export function useEmulator() {
  let emulator: Emulator | undefined;
  let client: ReturnType<typeof createClient> | undefined;
  beforeAll(async () => {
    emulator = await startEmulator({ anvil: false });
    client = createClient({ apiKey: emulator.apiKey, baseUrls: emulator.urls, retry: false });
  });
  afterAll(async () => {
    await client?.close();
    await emulator?.close();
  });
  return {
    get emulator(): Emulator {
      if (!emulator) throw new Error('the emulator starts in beforeAll');
      return emulator;
    },
    get client(): ReturnType<typeof createClient> {
      if (!client) throw new Error('the client is made in beforeAll');
      return client;
    },
  };
}

/** POSTs to the emulator's control API. */
export async function control(emulator: Emulator, path: string, body: unknown = {}): Promise<unknown> {
  const response = await fetch(`${emulator.control}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`control ${path}: HTTP ${response.status} ${await response.text()}`);
  return response.json();
}
