import { skipped } from '@blockwire/testing/skips';
import { expect, it } from 'vitest';
import { n8nQueue } from './n8n-queue.ts';
import { failures } from './report.ts';

it.skipIf(skipped('n8n', 'postgresql', 'redis'))(
  'n8n in queue mode under 20 % lost deliveries: every payment stage reaches the workflow once, on the workers; the stream is registered and deleted once',
  async () => {
    const outcome = await n8nQueue('quick');
    expect(failures(outcome), JSON.stringify(outcome.figures, null, 1)).toEqual([]);
    expect(outcome.passed).toBe(true);
  },
  900_000,
);
