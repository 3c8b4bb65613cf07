/* eslint-disable @n8n/community-nodes/no-restricted-imports --
   Test harness: the e2e tests and the benchmarks point n8n at the emulator; none of it ships (package.json#files is dist). */
import { DEFAULT_SECRET_KEY, type Emulator } from '@blockwire/emulator';
import type { BlockwireCredentials } from '../nodes/shared/credentials.ts';

/** The credentials a user would save to point the nodes at this emulator. */
export function credentialsFor(emulator: Pick<Emulator, 'apiKey' | 'urls'>): BlockwireCredentials {
  return {
    apiKey: emulator.apiKey,
    webhookSecret: DEFAULT_SECRET_KEY,
    evmBaseUrl: emulator.urls.evm,
    solanaBaseUrl: emulator.urls.solana,
    streamsBaseUrl: emulator.urls.streams,
    nodeBaseUrl: emulator.urls.node,
  };
}
