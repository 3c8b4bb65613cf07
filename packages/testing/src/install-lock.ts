/**
 * A one-time install into a shared cache folder (n8n, a consumer project's stack) that parallel
 * test processes may all ask for at once: one installs, the others wait for its completion marker.
 * The lock is a folder holding the holder's pid, so a lock left by a killed process is taken over.
 * Imports Node's modules only: plain Node runs the n8n install script that uses it.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

export interface InstallLockOptions {
  /** Whether `target` already holds a complete install. */
  isComplete(): boolean;
  /** Installs into `target`; called at most once across the processes that wait. */
  install(): Promise<void>;
  /** How long to wait for another process's install before giving up. */
  waitMs: number;
  /** How often to look again while another process installs; default 1 s. */
  pollMs?: number;
  /** Called once when this process starts waiting for another one. */
  onWait?(): void;
}

/** Runs `install` under the lock `<target>.lock` unless the install is (or becomes) complete. */
export async function withInstallLock(target: string, options: InstallLockOptions): Promise<void> {
  if (options.isComplete()) return;
  mkdirSync(dirname(target), { recursive: true });
  const lockDir = `${target}.lock`;
  const deadline = Date.now() + options.waitMs;
  let waiting = false;
  while (!tryLock(lockDir)) {
    if (options.isComplete()) return;
    if (Date.now() > deadline) throw new Error(`gave up waiting for the install lock ${lockDir}`);
    if (!waiting) options.onWait?.();
    waiting = true;
    await sleep(options.pollMs ?? 1000);
  }
  try {
    if (!options.isComplete()) await options.install();
  } finally {
    await rm(lockDir, { recursive: true, force: true });
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Takes the lock, or returns false while another live process holds it. */
function tryLock(lockDir: string): boolean {
  try {
    mkdirSync(lockDir);
    writeFileSync(join(lockDir, 'pid'), String(process.pid));
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const pidFile = join(lockDir, 'pid');
  const holder = existsSync(pidFile) ? Number(readFileSync(pidFile, 'utf8')) : Number.NaN;
  // A lock folder without a pid yet is being taken right now, unless it is old.
  const stale = Number.isInteger(holder)
    ? !processAlive(holder)
    : Date.now() - statSync(lockDir).mtimeMs > 60_000;
  if (!stale) return false;
  try {
    // Whoever moves the stale lock away first takes it; the others wait for that one.
    renameSync(lockDir, `${lockDir}.stale-${process.pid}`);
  } catch {
    return false;
  }
  void rm(`${lockDir}.stale-${process.pid}`, { recursive: true, force: true });
  return tryLock(lockDir);
}
