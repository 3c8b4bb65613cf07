/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals --
   Test code: runs in vitest, never inside n8n (package.json#files is dist). */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { queueModeEnv } from '../e2e/queue.ts';
import { operationsTable, readmeWorkflows, renderReadme } from '../e2e/readme-workflows.ts';
import { NODE_ACTIONS, resourceLabel } from '../nodes/Blockwire/actions';
import {
  REPEATS_RETENTION_DAYS,
  REPEATS_SQL,
  REPEATS_TABLE,
} from '../nodes/BlockwireTrigger/postgres-repeats';
import { REPEAT_HISTORY } from '../nodes/BlockwireTrigger/repeats';

const README = join(__dirname, '..', 'README.md');

describe('README', () => {
  const text = readFileSync(README, 'utf8');
  const fresh = renderReadme(text, operationsTable(NODE_ACTIONS, resourceLabel));

  it('has its operations table and workflow examples as the code generates them (BLOCKWIRE_UPDATE_README=1 rewrites)', () => {
    if (process.env.BLOCKWIRE_UPDATE_README === '1' && fresh !== text) writeFileSync(README, fresh);
    else expect(text).toBe(fresh);
  });

  it('shows a copyable workflow for every resource, and the trigger', () => {
    const shown = [...text.matchAll(/<!-- workflow: (\w+) -->/g)].map((match) => match[1]);
    const resources = [...new Set(NODE_ACTIONS.map((action) => action.resource))];
    expect(shown).toEqual(expect.arrayContaining([...resources, 'bitcoinTrigger']));
    expect(Object.keys(readmeWorkflows())).toEqual(expect.arrayContaining(shown as string[]));
  });

  it('states the repeat history the code keeps', () => {
    expect(text).toContain(`last ${REPEAT_HISTORY.toLocaleString('en-US')} delivery keys`);
    expect(text).toContain(`(\`${REPEATS_TABLE}\`)`);
    expect(text).toContain(`kept ${REPEATS_RETENTION_DAYS} days`);
  });

  it('queue mode: the environment block names exactly what the harness gives every process', () => {
    const section = text.slice(text.indexOf('## Queue mode'), text.indexOf('## Development'));
    const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
    const names = block.split('\n').flatMap((line) => /^([A-Z0-9_]+)=/.exec(line)?.[1] ?? []);
    const placeholder = { host: 'h', port: 1, database: 'd', user: 'u' };
    const env = queueModeEnv({
      database: placeholder,
      redis: placeholder,
      encryptionKey: 'k',
      webhookUrl: 'https://h/',
    });
    expect(names.sort()).toEqual(Object.keys(env).sort());
  });

  it('queue mode: shows the SQL the PostgreSQL repeat store runs, as it runs it', () => {
    const section = text.slice(text.indexOf('## Queue mode'), text.indexOf('## Development'));
    const sql = /```sql\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
    for (const statement of [...REPEATS_SQL.schema, REPEATS_SQL.claim, REPEATS_SQL.prune]) {
      expect(sql).toContain(`${statement};`);
    }
    expect(sql).toContain(`$1 = ${REPEATS_RETENTION_DAYS} (days)`);
  });
});
