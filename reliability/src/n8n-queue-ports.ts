import { execFileSync } from 'node:child_process';
import type { N8nQueue } from 'n8n-nodes-blockwire/e2e/queue.ts';

/** Every TCP port a process of the queue's groups listens on, with its address (from `ss`). */
export function listenersOf(queue: N8nQueue): string[] {
  const groups = queue.processes.map((child) => child.pid).filter((pid): pid is number => pid !== undefined);
  const pids = new Set(
    execFileSync('ps', ['-o', 'pid=', '-g', groups.join(',')], { encoding: 'utf8' })
      .split('\n')
      .map((line) => line.trim())
      .filter(Boolean),
  );
  return execFileSync('ss', ['-ltnpH'], { encoding: 'utf8' })
    .split('\n')
    .filter((line) => [...line.matchAll(/pid=(\d+)/g)].some((match) => pids.has(match[1]!)))
    .map((line) => line.split(/\s+/)[3] ?? '');
}
