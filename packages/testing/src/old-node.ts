/** Finds a Node.js older than the packages support on this machine, to test what users of it see. */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/** The path and version of a `node` older than `belowMajor` (on PATH or in /usr/local/bin, /usr/bin), if any. */
export function findOldNode(belowMajor = 22): { path: string; version: string } | undefined {
  const dirs = [...(process.env.PATH ?? '').split(delimiter), '/usr/local/bin', '/usr/bin'];
  for (const path of new Set(dirs.filter(Boolean).map((dir) => join(dir, 'node')))) {
    if (!existsSync(path)) continue;
    try {
      const version = execFileSync(path, ['--version'], { encoding: 'utf8' }).trim().replace(/^v/, '');
      if (Number(version.split('.')[0]) < belowMajor) return { path, version };
    } catch {
      // Not runnable: try the next one.
    }
  }
  return undefined;
}
