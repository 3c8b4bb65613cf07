import { expect, it } from 'vitest';
import { badInput } from './bad-input.ts';
import { failures } from './report.ts';

it('bad input on every operation and every emulator route: ValidationError with no request, or the intended path; 4xx and state unchanged', async () => {
  const outcome = await badInput('quick');
  expect(failures(outcome), JSON.stringify(outcome.figures)).toEqual([]);
  expect(outcome.passed).toBe(true);
}, 120_000);
