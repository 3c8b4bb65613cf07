/**
 * The official SDK, started once for the whole run (it is a process-wide singleton), pointed at the
 * local servers by its own configuration.
 */
import Moralis from 'moralis';
import { API_KEY, WEBHOOK_SECRET } from './fixtures.ts';

let started: Promise<typeof Moralis> | undefined;

export function startMoralis(evmApiBaseUrl: string): Promise<typeof Moralis> {
  started ??= Moralis.start({ apiKey: API_KEY, evmApiBaseUrl, streamsSecret: WEBHOOK_SECRET }).then(
    () => Moralis,
  );
  return started;
}
