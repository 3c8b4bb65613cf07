/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals --
   Test code: runs in vitest, never inside n8n (package.json#files is dist). */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { removeEnvironment } from '../e2e/n8n.ts';
import { prepareN8nQueue, queueModeEnv } from '../e2e/queue.ts';
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
    const section = text.slice(
      text.indexOf('### The environment of every process'),
      text.indexOf('## Development'),
    );
    const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
    const names = block.split('\n').flatMap((line) => /^([A-Z0-9_]+)=/.exec(line)?.[1] ?? []);
    const placeholder = { host: 'h', port: 1, database: 'd', user: 'u' };
    const env = queueModeEnv({
      database: placeholder,
      redis: placeholder,
      encryptionKey: 'k',
      webhookUrl: 'https://h/',
      customExtensions: '/x',
    });
    expect(names.sort()).toEqual(Object.keys(env).sort());
  });

  it('queue mode: the install steps lay the package out as the harness does for every process', async () => {
    const section = text.slice(
      text.indexOf('### Install it on the main instance'),
      text.indexOf('### The environment'),
    );
    const steps = /```sh\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
    const folder = /N8N_CUSTOM_EXTENSIONS=(\S+)/.exec(steps)?.[1];
    const { name, version } = JSON.parse(readFileSync(join(__dirname, '..', 'package.json'), 'utf8'));
    expect(steps).toContain(`mkdir -p ${folder}/${name}`);
    expect(steps).toContain(`npm pack ${name}@${version}`);
    expect(steps).toContain(`tar -xzf ${name}-${version}.tgz -C ${folder}/${name} --strip-components=1`);
    expect(section).toContain(`npm install ${name}@${version}`);
    // The harness: <N8N_CUSTOM_EXTENSIONS>/<package name>/{package.json,dist}, one folder for all processes.
    const environment = await prepareN8nQueue({
      packageDir: join(__dirname, '..'),
      database: { host: 'h', port: 1, database: 'd', user: 'u' },
      redis: { host: 'h', port: 1 },
    });
    try {
      const folders = new Set(environment.processes.map((plan) => plan.env.N8N_CUSTOM_EXTENSIONS));
      expect(folders.size).toBe(1);
      const [extensions] = [...folders] as string[];
      expect(readdirSync(join(extensions!, name)).sort()).toEqual(['dist', 'package.json']);
      expect(environment.processes.map((plan) => plan.role).sort()).toEqual([
        'main',
        'webhook',
        'worker',
        'worker',
      ]);
    } finally {
      removeEnvironment(environment.main);
    }
  });
});
