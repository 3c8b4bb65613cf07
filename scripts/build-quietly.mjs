// Builds a package and what it depends on before a launcher runs it (a cache hit when nothing
// changed). Quiet unless it fails: turbo's summary would come before what the user asked to see
// (the demo's URL, the emulator's usage or its ready line).
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Runs `turbo run build --filter=<filter>...`; on failure prints its output and exits. */
export function buildQuietly(filter, what) {
  const build = spawnSync(
    join(root, 'node_modules', '.bin', 'turbo'),
    ['run', 'build', `--filter=${filter}...`, '--output-logs=errors-only'],
    { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env: { TURBO_TELEMETRY_DISABLED: '1', ...process.env } },
  );
  if (build.status === 0) return;
  process.stderr.write(`${build.stdout ?? ''}${build.stderr ?? ''}${build.error?.message ?? ''}\n`);
  process.stderr.write(`The build failed: ${what} cannot start.\n`);
  process.exit(build.status ?? 1);
}
