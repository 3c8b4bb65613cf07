/**
 * `npm run emulator -- --help` (what npm runs: the bootstrap with emulator:start) prints the
 * emulator's usage and nothing before it: the build it does first is quiet unless it fails (or,
 * on stderr, takes long enough to print its progress lines).
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..');

describe('npm run emulator -- --help', () => {
  it('prints the usage first, without turbo’s build summary', async () => {
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      ['scripts/bootstrap.mjs', 'emulator:start', '--help'],
      { cwd: root, env: { ...process.env, NO_COLOR: '1' } },
    );
    expect(stdout).toMatch(/^Usage: blockwire-emulator \[options\]\n/);
    // Nothing but the progress lines a step longer than 5 s prints (a busy machine): no turbo summary.
    for (const line of stderr.split('\n').filter(Boolean)) expect(line).toMatch(/^\[(bootstrap|build)\] /);
  }, 300_000);
});
