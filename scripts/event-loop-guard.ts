/**
 * Fails the test during which the worker's event loop stood still for longer than `LIMIT_MS`.
 *
 * A vitest worker answers the main process over RPC with a 60 s deadline; a test that blocks its
 * worker that long (a synchronous install, a `spawnSync` of a whole bench run) makes vitest report
 * `Timeout calling "onTaskUpdate"` and fail the run although every test passed — and only on a busy
 * machine, where the same command takes longer. This names the test instead, long before the
 * deadline: run long commands with `execFile`/`spawn`, never their `*Sync` forms.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { afterAll, afterEach, beforeAll } from 'vitest';

export const LIMIT_MS = 20_000;

const delays = monitorEventLoopDelay({ resolution: 100 });

/** The problem to report when the loop stood still for `maxNs`, or undefined. */
export function blockedLoopProblem(maxNs: number, where: string): string | undefined {
  const ms = Math.round(maxNs / 1e6);
  if (ms <= LIMIT_MS) return undefined;
  return `${where} blocked its worker's event loop for ${ms} ms (limit ${LIMIT_MS} ms): vitest's worker RPC times out at 60 s. Run long commands asynchronously (execFile, spawn), not with spawnSync/execFileSync.`;
}

function check(where: string): void {
  const problem = blockedLoopProblem(delays.max, where);
  delays.reset();
  if (problem) throw new Error(problem);
}

beforeAll(() => {
  delays.reset();
  delays.enable();
});
afterEach((context) => check(`the test "${context.task.name}" (or a hook before it)`));
afterAll(() => {
  check('a hook of this file');
  delays.disable();
});
