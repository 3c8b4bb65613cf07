import { skipped } from '@blockwire/testing/skips';
import { expect, it } from 'vitest';
import { failures } from './report.ts';
import { webhookClusterRestart } from './webhook-cluster.ts';

it.skipIf(skipped('postgresql'))(
  'three receivers on one PostgreSQL restarted twice mid-run (pg_ctl restart -m fast): every receiver lives on, 0 lost, 0 wrong, each change reported once',
  async () => {
    const outcome = await webhookClusterRestart('quick');
    expect(failures(outcome), JSON.stringify(outcome.figures)).toEqual([]);
    expect(outcome.passed).toBe(true);
  },
  420_000,
);
