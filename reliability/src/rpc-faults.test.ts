import { expect, it } from 'vitest';
import { failures } from './report.ts';
import { rpcFaults } from './rpc-faults.ts';

it('JSON-RPC batches under 429, 5xx, resets and -32005: every caller its own result or a typed error', async () => {
  const outcome = await rpcFaults('quick');
  expect(failures(outcome), JSON.stringify(outcome.figures)).toEqual([]);
  expect(outcome.passed).toBe(true);
}, 90_000);
