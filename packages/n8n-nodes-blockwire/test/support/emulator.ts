import { createClient } from '@blockwire/core';
import { type Emulator, startEmulator } from '@blockwire/emulator';
import { afterAll, beforeAll } from 'vitest';

// Shared with the benchmarks (bench/), which run the nodes against the emulator in a real n8n too.
export { credentialsFor } from '../../e2e/emulator-credentials.ts';

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
