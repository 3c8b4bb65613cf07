import { existsSync, mkdirSync, mkdtempSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { withInstallLock } from './install-lock.js';

function installer(target: string) {
  let installs = 0;
  return {
    get installs() {
      return installs;
    },
    options: {
      isComplete: () => existsSync(join(target, 'done')),
      install: async () => {
        installs++;
        await sleep(50);
        mkdirSync(target, { recursive: true });
        writeFileSync(join(target, 'done'), '');
      },
      waitMs: 5000,
      pollMs: 10,
    },
  };
}

describe('withInstallLock', () => {
  it('installs once when several callers ask at the same time, and releases the lock', async () => {
    const target = join(mkdtempSync(join(tmpdir(), 'lock-')), 'stack');
    const counter = installer(target);
    const { options } = counter;
    await Promise.all([
      withInstallLock(target, options),
      withInstallLock(target, options),
      withInstallLock(target, options),
    ]);
    expect(counter.installs).toBe(1);
    expect(existsSync(`${target}.lock`)).toBe(false);
  });

  it('takes over a lock whose holder is gone, and an old lock that never got a pid', async () => {
    for (const leave of ['dead pid', 'no pid'] as const) {
      const target = join(mkdtempSync(join(tmpdir(), 'lock-')), 'stack');
      mkdirSync(`${target}.lock`);
      if (leave === 'dead pid') writeFileSync(join(`${target}.lock`, 'pid'), '2147483646');
      else utimesSync(`${target}.lock`, new Date(0), new Date(0));
      const counter = installer(target);
      const { options } = counter;
      await withInstallLock(target, options);
      expect(counter.installs).toBe(1);
    }
  });

  it('gives up after waitMs while a live process holds the lock, naming the lock', async () => {
    const target = join(mkdtempSync(join(tmpdir(), 'lock-')), 'stack');
    mkdirSync(`${target}.lock`);
    writeFileSync(join(`${target}.lock`, 'pid'), String(process.pid));
    const counter = installer(target);
    const { options } = counter;
    let waited = 0;
    await expect(
      withInstallLock(target, { ...options, waitMs: 100, onWait: () => waited++ }),
    ).rejects.toThrow(`gave up waiting for the install lock ${target}.lock`);
    expect([counter.installs, waited]).toEqual([0, 1]);
  });

  it('releases the lock when the install fails, so the next caller can try', async () => {
    const target = join(mkdtempSync(join(tmpdir(), 'lock-')), 'stack');
    const { options } = installer(target);
    await expect(
      withInstallLock(target, { ...options, install: () => Promise.reject(new Error('no network')) }),
    ).rejects.toThrow('no network');
    expect(existsSync(`${target}.lock`)).toBe(false);
  });
});
