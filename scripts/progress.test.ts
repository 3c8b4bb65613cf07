/**
 * The long steps of a first run are never silent: a step that outlasts its quiet time is
 * announced, then reported at a steady pace (a real slow child process here), and a test run
 * quiet for 10 s gets a line naming the files still running.
 */
import { describe, expect, it } from 'vitest';
import { duration, Heartbeat } from './heartbeat-reporter.js';
import { runStep } from './progress.mjs';

/** Runs a child that sleeps `ms`, collecting each progress line with the time it came. */
async function slowStep(ms: number, options: { quietMs: number; everyMs: number }) {
  const lines: { at: number; text: string }[] = [];
  const started = Date.now();
  const result = await runStep(process.execPath, ['-e', `setTimeout(() => {}, ${ms})`], {
    prefix: 'test',
    what: 'sleeping',
    expect: 'a moment',
    write: (text: string) => lines.push({ at: Date.now() - started, text: text.trimEnd() }),
    ...options,
  });
  return { result, lines, took: Date.now() - started };
}

describe('runStep', () => {
  it('announces a slow step, says it is still going at a steady pace, and how long it took', async () => {
    const { result, lines, took } = await slowStep(4_500, { quietMs: 500, everyMs: 1_000 });
    expect(result.status).toBe(0);
    expect(lines[0]?.text).toBe('[test] sleeping (a moment) …');
    expect(lines.at(-1)?.text).toMatch(/^\[test\] sleeping: done in \d+ s$/);
    const still = lines.slice(1, -1);
    expect(still.length).toBeGreaterThanOrEqual(2);
    for (const line of still) expect(line.text).toMatch(/^\[test\] still sleeping: \d+ s$/);
    // No gap longer than the pace (plus slack for a busy machine), from the start to the end.
    const times = [0, ...lines.map((line) => line.at), took];
    const gaps = times.slice(1).map((at, i) => at - times[i]!);
    expect(Math.max(...gaps.slice(1))).toBeLessThan(1_000 + 1_500);
    expect(gaps[0]).toBeLessThan(500 + 1_500);
  }, 30_000);

  it('prints nothing for a step that ends within its quiet time (a warm run stays quiet)', async () => {
    const { result, lines } = await slowStep(0, { quietMs: 3_000, everyMs: 1_000 });
    expect(result.status).toBe(0);
    expect(lines).toEqual([]);
  }, 30_000);

  it('hands back what a captured step printed, and its exit code', async () => {
    const result = await runStep(
      process.execPath,
      ['-e', 'console.log("out"); console.error("err"); process.exit(3)'],
      {
        prefix: 'test',
        what: 'failing',
        capture: true,
        write: () => {},
      },
    );
    expect(result.status).toBe(3);
    expect(result.output).toContain('out');
    expect(result.output).toContain('err');
  });
});

describe('the test run heartbeat', () => {
  it('prints when no file finished for 10 s, naming what runs and for how long', () => {
    let now = 1_000_000;
    const lines: string[] = [];
    const heartbeat = new Heartbeat(
      (line) => lines.push(line),
      () => now,
    );
    heartbeat.start(3);
    heartbeat.moduleStarted('a.test.ts');
    heartbeat.moduleStarted('n8n.e2e.test.ts');
    const wait = (ms: number) => {
      for (let t = 0; t < ms; t += 1000) {
        now += 1000;
        heartbeat.tick();
      }
    };
    wait(9_000);
    expect(lines).toEqual([]);
    wait(1_000);
    expect(lines).toEqual([
      '[tests] still running (10 s): 0 of 3 files done; running a.test.ts (10 s), n8n.e2e.test.ts (10 s)',
    ]);
    heartbeat.moduleEnded('a.test.ts'); // the default reporter prints a line for it
    wait(9_000);
    expect(lines).toHaveLength(1);
    wait(221_000);
    expect(lines).toHaveLength(1 + 23);
    expect(lines.at(-1)).toBe(
      '[tests] still running (4 min 0 s): 1 of 3 files done; running n8n.e2e.test.ts (4 min 0 s)',
    );
  });

  it('words durations as a person reads them', () => {
    expect([duration(400), duration(59_000), duration(185_000)]).toEqual(['0 s', '59 s', '3 min 5 s']);
  });
});
