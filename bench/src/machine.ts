import { execFileSync } from 'node:child_process';
import { cpus, loadavg, totalmem } from 'node:os';

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
