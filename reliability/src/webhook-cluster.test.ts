import { skipped } from '@blockwire/testing/skips';
import { expect, it } from 'vitest';
import { failures } from './report.ts';
import { webhookCluster } from './webhook-cluster.ts';

it.skipIf(skipped('postgresql'))(
  'four receivers behind one port on one PostgreSQL, duplicates at once on other workers, two workers SIGKILLed: every txid at its true stage, each change reported once, nothing accepted lost',
  async () => {
    const outcome = await webhookCluster('quick');
    expect(failures(outcome), JSON.stringify(outcome.figures)).toEqual([]);
    expect(outcome.passed).toBe(true);
  },
  420_000,
);
