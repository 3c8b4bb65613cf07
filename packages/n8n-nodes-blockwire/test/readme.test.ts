/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals --
   Test code: runs in vitest, never inside n8n (package.json#files is dist). */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { queueModeEnv } from '../e2e/queue.ts';
import { operationsTable, readmeWorkflows, renderReadme } from '../e2e/readme-workflows.ts';
import { NODE_ACTIONS, resourceLabel } from '../nodes/Blockwire/actions';
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
});
