import { expect, it } from 'vitest';
import { failures } from './report.ts';
import { secrets } from './secrets.ts';

it('a canary key and webhook secret through every failure path and the demo: found nowhere', async () => {
  const outcome = await secrets('quick');
  expect(failures(outcome), JSON.stringify(outcome.figures)).toEqual([]);
  expect(outcome.passed).toBe(true);
}, 120_000);
