import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { describe, expect, it } from 'vitest';
import { allowedCpus, cpuModel, pinProcess } from './machine.ts';

describe.runIf(process.platform === 'linux' && cpus().length > 1)('pinProcess', () => {
  it('moves every thread of a process to the CPUs it is given', async () => {
    // Node's threads (V8's platform workers, libuv's) have all started once it runs the script.
    const child = spawn(process.execPath, ['-e', 'console.log("up"); setInterval(() => {}, 1000)'], {
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    try {
      await new Promise((resolve) => child.stdout.once('data', resolve));
      expect(pinProcess(child.pid!, '1')).toBe(true);
      expect(allowedCpus(child.pid!)).toBe('1');
      const threads = readdirSync(`/proc/${child.pid}/task`);
      expect(threads.length).toBeGreaterThan(1);
      // Linux serves a thread's status at /proc/<thread id> too.
      for (const thread of threads) expect(allowedCpus(Number(thread)), `thread ${thread}`).toBe('1');
    } finally {
      child.kill();
    }
  });

  it('says false for a process that does not exist (taskset itself exits with 0 there)', () => {
    const unused = Number(readFileSync('/proc/sys/kernel/pid_max', 'utf8')) + 1;
    expect(pinProcess(unused, '0')).toBe(false);
  });
});

describe('cpuModel', () => {
  it('names the model with its family, model and stepping, which a virtual machine’s name leaves out', () => {
    const cpuinfo =
      'processor\t: 0\ncpu family\t: 25\nmodel\t\t: 17\nmodel name\t: AMD EPYC\nstepping\t: 1\n';
    expect(cpuModel(cpuinfo)).toBe('AMD EPYC (family 25, model 17, stepping 1)');
  });

  it('is the model name alone where the numbers are not listed', () => {
    expect(cpuModel('model name\t: Apple M2\n')).toBe('Apple M2');
  });
});
