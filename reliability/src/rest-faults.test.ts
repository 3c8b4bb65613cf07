import { expect, it } from 'vitest';
import { failures } from './report.ts';
import { restFaults } from './rest-faults.ts';

it('REST calls under 20 % faults: own answers, typed failures, Retry-After never undercut, writes as a clean run leaves them', async () => {
  const outcome = await restFaults('quick');
  expect(failures(outcome), JSON.stringify(outcome.figures)).toEqual([]);
  expect(outcome.passed).toBe(true);
}, 120_000);
