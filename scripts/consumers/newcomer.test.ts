/**
 * Two plain Node projects made exactly as a newcomer makes them — `npm init -y` (npm 11 writes
 * `"type": "commonjs"`), and the same with `"type": "module"` — with every library package
 * installed from its tarball, running each package README's first code example exactly as written:
 * saved under the file name the README gives, run with the command it gives, the variables it says
 * to set pointing at the emulator.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { root } from '../pack.js';
import { missingClaim, printedClaims, programsOf } from '../readme-blocks.js';
import { runProgram } from './harness/processes.js';
import { type ConsumerProject, consumerProject, removeTarballs, type StackSpec } from './harness/project.js';
import { receiverEnv } from './harness/recipes.js';
import { type Service, startService } from './harness/service.js';

const LIBRARIES = [
  '@blockwire/core',
  '@blockwire/prices',
  '@blockwire/entities',
  '@blockwire/streams',
  '@blockwire/rpc',
  '@blockwire/emulator',
  '@blockwire/mcp',
];
const PROJECTS: { stack: string; type: 'commonjs' | 'module'; spec: StackSpec }[] = [
  {
    stack: 'npm init -y (CommonJS)',
    type: 'commonjs',
    spec: {
      name: 'npm-init-commonjs',
      dependencies: {},
      blockwire: LIBRARIES,
      init: { kind: 'npm init -y' },
    },
  },
  {
    stack: 'npm init -y with "type": "module"',
    type: 'module',
    spec: {
      name: 'npm-init-module',
      dependencies: {},
      blockwire: LIBRARIES,
      init: { kind: 'npm init -y', type: 'module' },
    },
  },
];

const READMES = [
  'core',
  'prices',
  'entities',
  'streams',
  'rpc',
  'emulator',
  'mcp',
  'n8n-nodes-blockwire',
  'n8n-nodes-blockwire-postgres',
].map((folder) => `packages/${folder}/README.md`);

/** A README's first example, and how it says to run it (`run \`node example.mjs\``). */
function firstExample(readme: string) {
  const markdown = readFileSync(join(root, readme), 'utf8');
  const { blocks, examples } = programsOf(readme, markdown);
  const example = examples.find((candidate) => candidate.language !== 'sh' && !candidate.receiver);
  const command =
    /`node ([\w.-]+\.[cm]?[jt]s)`/.exec(markdown) ?? /^node ([\w.-]+\.[cm]?[jt]s)$/m.exec(markdown);
  const notRun = blocks.find((block) => block.marker?.kind === 'not run');
  return { example, file: command?.[1], notRun, blocks: blocks.length };
}

let service: Service;
beforeAll(async () => {
  service = await startService();
});
afterAll(async () => {
  await service?.close();
  await removeTarballs();
});

describe.each(PROJECTS)('$stack', ({ type, spec }) => {
  let project: ConsumerProject;
  beforeAll(async () => {
    project = await consumerProject(spec);
  }, 600_000);
  afterAll(async () => {
    await project?.remove();
  });

  it(`is the project npm makes: "type": "${type}"`, () => {
    const manifest = JSON.parse(readFileSync(join(project.dir, 'package.json'), 'utf8'));
    expect(manifest.type).toBe(type);
    for (const name of LIBRARIES) expect(manifest.dependencies[name], name).toMatch(/^file:tarballs\//);
  });

  for (const readme of READMES) {
    const { example, file, notRun, blocks } = firstExample(readme);
    const reason = notRun?.marker?.kind === 'not run' ? notRun.marker.reason : '';
    if (!example) {
      // Said by name in the report: which README, and why none of its blocks is a program.
      it.skip(`${readme}: no runnable example (each of its ${blocks} blocks is marked "not run", e.g. "${reason}")`, () => {});
      continue;
    }
    it(`${readme}: the first example (line ${example.block.line}) runs as written`, async () => {
      expect(
        file,
        `${readme} says which file to save an example as and how to run it (\`node <file>\`)`,
      ).toBeDefined();
      writeFileSync(join(project.dir, file!), example.source);
      const outcome = await runProgram(process.execPath, [file!], {
        cwd: project.dir,
        env: receiverEnv(service.env),
        timeoutMs: 60_000,
      });
      const shown = `node ${file} exited ${outcome.code}\n--- stdout\n${outcome.stdout}--- stderr\n${outcome.stderr}`;
      expect(outcome.code, shown).toBe(0);
      // A clean run: no warning about the module type (what a project without "type" prints).
      expect(outcome.stderr, shown).not.toMatch(/MODULE_TYPELESS_PACKAGE_JSON|SyntaxError/);
      expect(missingClaim(outcome.stdout, printedClaims(example.source)), shown).toBeUndefined();
    }, 90_000);
  }
});
