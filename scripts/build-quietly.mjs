// Builds a package and what it depends on before a launcher runs it (a cache hit when nothing
// changed). Quiet unless it takes long or fails: turbo's summary would come before what the user
// asked to see (the demo's URL, the emulator's usage or its ready line). A build longer than a
// few seconds (a fresh clone) says so, then prints a line every 10 s until it is done.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runStep } from './progress.mjs';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Runs `turbo run build --filter=<filter>...`; on failure prints its output and exits. */
export async function buildQuietly(filter, what) {
  const build = await runStep(
    join(root, 'node_modules', '.bin', 'turbo'),
    ['run', 'build', `--filter=${filter}...`, '--output-logs=errors-only'],
    {
      prefix: 'build',
      what: `building ${what} and the packages it uses`,
      expect: 'turbo; minutes on a fresh clone, seconds when cached',
      capture: true,
      spawnOptions: { cwd: root, env: { TURBO_TELEMETRY_DISABLED: '1', ...process.env } },
    },
  );
  if (build.status === 0) return;
  process.stderr.write(`${build.output}\n`);
  process.stderr.write(`The build failed: ${what} cannot start.\n`);
  process.exit(build.status ?? 1);
}
