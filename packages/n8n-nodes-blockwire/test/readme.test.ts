/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals --
   Test code: runs in vitest, never inside n8n (package.json#files is dist). */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { operationsTable, readmeWorkflows, renderReadme } from '../e2e/readme-workflows.ts';
import { NODE_ACTIONS, resourceLabel } from '../nodes/Blockwire/actions';
import { REPEATS_RETENTION_DAYS, REPEATS_TABLE } from '../nodes/BlockwireTrigger/postgres-repeats';
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
});
