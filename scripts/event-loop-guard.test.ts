import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { blockedLoopProblem, LIMIT_MS } from './event-loop-guard.ts';

describe('the event-loop guard', () => {
  it('passes a loop that never stood still past the limit', () => {
    expect(blockedLoopProblem(LIMIT_MS * 1e6, 'a test')).toBeUndefined();
  });

  it('names the test that blocked its worker past the limit, and how to fix it', () => {
    const problem = blockedLoopProblem((LIMIT_MS + 1) * 1e6, 'the test "x"');
    expect(problem).toMatch(/^the test "x" blocked its worker's event loop for 20001 ms/);
    expect(problem).toContain('execFile');
  });

  it('sees a synchronous child process as a blocked loop', async () => {
    const { monitorEventLoopDelay } = await import('node:perf_hooks');
    const delays = monitorEventLoopDelay({ resolution: 10 });
    delays.enable();
    await new Promise((resolve) => setTimeout(resolve, 50));
    execFileSync('sleep', ['0.5']);
    await new Promise((resolve) => setTimeout(resolve, 50));
    delays.disable();
    expect(delays.max / 1e6).toBeGreaterThanOrEqual(450);
  });
});
