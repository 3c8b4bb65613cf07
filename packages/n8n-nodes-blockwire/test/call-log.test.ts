/**
 * The action node says in n8n's log what its calls did: every HTTP call at debug level, every
 * retry as a warning with the reason and the wait, and the API key in none of it (the JSON-RPC
 * key sits in the URL path).
 */
import { type Emulator, startEmulator } from '@blockwire/emulator';
import type { IDataObject } from 'n8n-workflow';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Blockwire } from '../nodes/Blockwire/Blockwire.node';
import { control, credentialsFor } from './support/emulator';
import { executeContext } from './support/n8n-context';

const node = new Blockwire();
let emulator: Emulator;

beforeAll(async () => {
  emulator = await startEmulator({ seed: 7 }); // with anvil: the JSON-RPC key is in the URL path
}, 60_000);
afterEach(async () => {
  await fetch(`${emulator.control}/faults`, { method: 'DELETE' });
});
afterAll(async () => {
  await emulator?.close();
});

async function runLogged(parameters: IDataObject) {
  const { execute, logger } = executeContext({ parameters, credentials: credentialsFor(emulator) });
  const error = await node.execute.call(execute).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  return { logger, error };
}

describe('the node logs its calls the way n8n nodes do', () => {
  it('one debug line per HTTP call: method, path, status, time and attempt', async () => {
    const { logger, error } = await runLogged({ resource: 'entity', operation: 'get', entityId: 'binance' });
    expect(error).toBeUndefined();
    expect(logger.debugs).toHaveLength(1);
    expect(logger.debugs[0]).toMatch(/^Blockwire: GET \/entities\/binance answered 200 in \d+ ms \(attempt 1\)$/);
    expect(logger.warnings).toEqual([]);
  });

  it('each retry is a warning saying why and how long the wait is; the failed call still fails', async () => {
    await control(emulator, '/faults', { interface: 'evm', rate: 1, statuses: [503], retryAfterSeconds: 0 });
    const { logger, error } = await runLogged({ resource: 'entity', operation: 'get', entityId: 'binance' });
    expect(error).toBeInstanceOf(Error);
    expect(logger.warnings.length).toBeGreaterThanOrEqual(1);
    expect(logger.debugs).toHaveLength(logger.warnings.length + 1); // every attempt answered 503
    logger.warnings.forEach((warning, index) => {
      expect(warning).toMatch(
        new RegExp(`^Blockwire: GET /entities/binance attempt ${index + 1} failed \\(.*503.*\\); retrying in \\d+\\.\\d s$`),
      );
    });
  });

  it('JSON-RPC calls are logged with the key masked in the path', async () => {
    const { apiKey } = credentialsFor(emulator);
    const { logger, error } = await runLogged({
      resource: 'wallet',
      operation: 'getBlockNumber',
      chain: 'eth',
    });
    expect(error).toBeUndefined();
    expect(logger.debugs.length).toBeGreaterThanOrEqual(1);
    const everything = JSON.stringify([logger.debugs, logger.warnings, logger.infos]);
    expect(everything).not.toContain(String(apiKey));
    expect(logger.debugs[0]).toMatch(/^Blockwire: POST \S+ answered 200/);
  });
});
