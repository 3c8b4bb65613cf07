import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script, no declarations
import { checkGenerated } from './generate-check.mjs';

const exec = promisify(execFile);
let repo: string;

/** A generator that writes `text` to `file`, as `pnpm generate` writes its artefacts. */
const writer = (file: string, text: string) => ({
  command: process.execPath,
  args: ['-e', `require('node:fs').writeFileSync(${JSON.stringify(file)}, ${JSON.stringify(text)})`],
});

beforeEach(async () => {
  repo = mkdtempSync(join(tmpdir(), 'generate-check-'));
  await exec('git', ['init', '-q'], { cwd: repo });
  writeFileSync(join(repo, 'index.ts'), 'export const a = 1;\n');
  await exec('git', ['add', '.'], { cwd: repo });
  await exec('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', 'commit', '-qm', 'start'], {
    cwd: repo,
  });
});
afterEach(() => rmSync(repo, { recursive: true, force: true }));

describe('checkGenerated', () => {
  it('passes when the generator writes what is committed', async () => {
    const result = await checkGenerated({ cwd: repo, ...writer('index.ts', 'export const a = 1;\n') });
    expect(result).toMatchObject({ ok: true, stale: [] });
  });

  it('names a committed file the generator rewrites, and a file it adds', async () => {
    const stale = await checkGenerated({ cwd: repo, ...writer('index.ts', 'export const a = 2;\n') });
    expect(stale).toMatchObject({ ok: false, stale: ['index.ts'] });
    const added = await checkGenerated({ cwd: repo, ...writer('new.json', '{}') });
    expect(added).toMatchObject({ ok: false, stale: ['new.json'] });
  });

  it('leaves out work in progress the generator does not touch, but not one it rewrites', async () => {
    writeFileSync(join(repo, 'draft.ts'), 'work in progress\n');
    writeFileSync(join(repo, 'index.ts'), 'export const a = 3;\n');
    const untouched = await checkGenerated({ cwd: repo, ...writer('other.txt', '') });
    expect(untouched.stale).toEqual(['other.txt']);
    const rewritten = await checkGenerated({ cwd: repo, ...writer('index.ts', 'export const a = 4;\n') });
    expect(rewritten.stale).toEqual(['index.ts']);
    expect(readFileSync(join(repo, 'draft.ts'), 'utf8')).toBe('work in progress\n');
  });

  it('fails with the generator’s output when it fails', async () => {
    const result = await checkGenerated({
      cwd: repo,
      command: process.execPath,
      args: ['-e', 'console.error("contract: parameter dropped"); process.exit(3)'],
    });
    expect(result.ok).toBe(false);
    expect(result.output).toContain('contract: parameter dropped');
  });
});
