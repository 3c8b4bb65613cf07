import { skipped } from '@blockwire/testing/skips';
import { expect, it } from 'vitest';
import { failures } from './report.ts';
import { webhookClusterIdle } from './webhook-cluster.ts';

it.skipIf(skipped('postgresql'))(
  'three receivers on one PostgreSQL that ends every session idle for 300 ms, duplicates at once: none looks dead, 0 lost or wrong, each change reported once, at most 1 % of callbacks run again',
  async () => {
    const outcome = await webhookClusterIdle('quick');
    expect(failures(outcome), JSON.stringify(outcome.figures)).toEqual([]);
    expect(outcome.passed).toBe(true);
  },
  420_000,
);
