/**
 * The two reporters `npm test` runs vitest with (scripts/run-tests.mjs), inside a real vitest run
 * over scripts/fixtures/reporters: the totals count every test whatever its outcome, and the
 * heartbeat speaks while a test keeps the run quiet.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const fixtures = join(root, 'scripts', 'fixtures', 'reporters');

/** Runs vitest over the fixtures as a user would, without this run's worker environment. */
function runFixtures(totalsFile: string): Promise<{ status: number | null; stderr: string }> {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('VITEST')));
  const child = spawn(join(root, 'node_modules', '.bin', 'vitest'), ['run'], {
    cwd: fixtures,
    env: { ...env, BLOCKWIRE_TOTALS_FILE: totalsFile, NO_COLOR: '1' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stderr }));
  });
}

describe('the reporters of npm test, in a real vitest run', () => {
  const workDir = mkdtempSync(join(tmpdir(), 'blockwire-reporters-'));
  const totalsFile = join(workDir, 'totals.json');
  let run: { status: number | null; stderr: string };

  beforeAll(async () => {
    run = await runFixtures(totalsFile);
  }, 60_000);
  afterAll(() => rmSync(workDir, { recursive: true, force: true }));

  it('counts every test: passed, failed, skipped, todo, behind a failing hook, and a file that does not load', () => {
    expect(run.status).toBe(1);
    // passed: 2 in outcomes, the slow one; failed: `fails` and broken.check.ts;
    // skipped: `is skipped`, the todo and the test behind the throwing beforeAll.
    expect(JSON.parse(readFileSync(totalsFile, 'utf8'))).toEqual({ passed: 3, failed: 2, skipped: 3 });
  });

  it('prints a line naming the running file while no file finishes for its quiet time', () => {
    const beats = run.stderr.split('\n').filter((line) => line.startsWith('[tests] still running'));
    // On a busy machine a first line may come while the workers still start; one names the slow file.
    expect(beats).toContainEqual(
      expect.stringMatching(
        /^\[tests\] still running \(\d+ s\): \d of 3 files done; running slow\.check\.ts \(\d+ s\)$/,
      ),
    );
  });
});
