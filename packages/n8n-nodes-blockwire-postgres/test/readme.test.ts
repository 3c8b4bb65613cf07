/* eslint-disable @n8n/community-nodes/no-restricted-imports --
   Test code: runs in vitest, never inside n8n (package.json#files is dist). */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  REPEATS_RETENTION_DAYS,
  REPEATS_SQL,
  REPEATS_TABLE,
} from '../nodes/BlockwireTriggerPostgres/postgres-repeats';

const text = readFileSync(join(__dirname, '..', 'README.md'), 'utf8');

describe('README', () => {
  it('shows the SQL the PostgreSQL repeat store runs, as it runs it', () => {
    const sql = /```sql\n([\s\S]*?)```/.exec(text)?.[1] ?? '';
    for (const statement of [...REPEATS_SQL.schema, REPEATS_SQL.claim, REPEATS_SQL.prune]) {
      expect(sql).toContain(`${statement};`);
    }
    expect(sql).toContain(`$1 = ${REPEATS_RETENTION_DAYS} (days)`);
    expect(sql).toContain(REPEATS_TABLE);
    expect(text).toContain(`Keys are kept ${REPEATS_RETENTION_DAYS} days`);
  });
});
