import { execFileSync } from 'node:child_process';
import { cpus, getPriority, loadavg, setPriority, totalmem } from 'node:os';

export function machineDescription(): string {
  const list = cpus();
  const model = list[0]?.model.trim() ?? 'unknown CPU';
  return `${list.length} × ${model}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, ${process.platform} ${process.arch}`;
}

/** The commit measured, with `-dirty` when the work tree has changes. */
export function commitDescription(cwd: string): string {
  try {
    const commit = execFileSync('git', ['rev-parse', '--short=12', 'HEAD'], { cwd, encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], {
      cwd,
      encoding: 'utf8',
    });
    return dirty.trim() ? `${commit}-dirty` : commit;
  } catch {
    return 'unknown (not a git checkout)';
  }
}

export const loadAverage = () => loadavg()[0] ?? 0;

/** The niceness a full run asks for: other jobs on a shared machine then take less of its time. */
export const BENCH_NICENESS = -10;

/**
 * Asks for a higher scheduling priority, before any server, worker or child process starts (on
 * Linux they inherit it from the thread that makes them): every contender runs in this process
 * and calls servers it starts, so all of them gain alike, and a burst from another job on the
 * machine lands less often in the middle of one contender's run. Only root may raise it; then
 * the run goes on at the priority it has. Returns the niceness the run has.
 */
export function raisePriority(): number {
  try {
    setPriority(0, BENCH_NICENESS);
  } catch {
    // Not allowed (not root): measured at the usual priority, and the results say so.
  }
  return getPriority(0);
}
