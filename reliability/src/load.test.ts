import { expect, it } from 'vitest';
import { load } from './load.ts';
import { failures } from './report.ts';

it('a bounded load from a second process, a new txid in every delivery: no request fails, memory stays flat', async () => {
  const outcome = await load('quick');
  expect(failures(outcome), JSON.stringify(outcome.figures)).toEqual([]);
  expect(outcome.passed).toBe(true);
}, 90_000);
