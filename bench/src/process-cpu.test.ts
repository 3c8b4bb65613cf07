import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { processGroupCpuMs } from './process-cpu.ts';

describe.runIf(process.platform === 'linux')('processGroupCpuMs', () => {
  it('counts the CPU of a busy process in its own group, and nothing once it has exited', async () => {
    const child = spawn(process.execPath, ['-e', 'for (;;);'], { detached: true, stdio: 'ignore' });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    const pgid = child.pid!;
    let used = 0;
    const deadline = Date.now() + 20_000;
    while (used < 100 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      used = processGroupCpuMs(pgid)!;
    }
    process.kill(-pgid, 'SIGKILL');
    await exited;
    expect(used).toBeGreaterThanOrEqual(100);
    expect(processGroupCpuMs(pgid)).toBe(0);
    expect(processGroupCpuMs(process.pid)).toBeGreaterThanOrEqual(0);
  });
});
