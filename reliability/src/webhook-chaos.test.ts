import { expect, it } from 'vitest';
import { failures } from './report.ts';
import { webhookChaos } from './webhook-chaos.ts';

it('webhook chaos with two SIGKILLed restarts: every txid at its true stage, forgeries refused and never stored', async () => {
  const outcome = await webhookChaos('quick');
  expect(failures(outcome), JSON.stringify(outcome.figures)).toEqual([]);
  expect(outcome.passed).toBe(true);
}, 150_000);
