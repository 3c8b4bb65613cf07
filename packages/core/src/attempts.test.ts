import { describe, expect, it, vi } from 'vitest';
import { AttemptTimeout, InFlight } from './attempts.js';
import type { AttemptHandle } from './transport.js';

const answer = { status: 200, headers: {}, body: 'ok' };

describe('InFlight', () => {
  it('settles with the transport’s answer, once', async () => {
    const inFlight = new InFlight(1_000);
    let handle: AttemptHandle | undefined;
    const pending = inFlight.start(undefined, (attempt) => {
      handle = attempt;
    });
    handle!.resolve(answer);
    handle!.reject(new Error('too late'));
    await expect(pending).resolves.toBe(answer);
  });

  it('startDirectThen settles with what the follow-up makes of the answer, the failure, the timeout or the abort', async () => {
    const inFlight = new InFlight(30);
    const request = {
      origin: 'http://x',
      path: '/',
      method: 'GET',
      headers: {},
      body: undefined,
      maxResponseBytes: 10,
    };
    const followUp = {
      answered: (response: typeof answer, context: string) => {
        if (context === 'throw') throw new Error('bad answer');
        return `${context}: answered ${response.body}`;
      },
      failed: (error: unknown, context: string) =>
        `${context}: failed ${error instanceof AttemptTimeout ? 'timeout' : String(error)}`,
    };
    const settle = (how: (attempt: AttemptHandle) => void, context: string, signal?: AbortSignal) =>
      inFlight.startDirectThen(signal, (_request, attempt) => how(attempt), request, followUp, context);
    await expect(settle((attempt) => attempt.resolve(answer), 'a')).resolves.toBe('a: answered ok');
    await expect(settle((attempt) => attempt.reject(new Error('reset')), 'b')).resolves.toBe(
      'b: failed Error: reset',
    );
    await expect(
      settle(() => {
        throw new Error('sync');
      }, 'c'),
    ).resolves.toBe('c: failed Error: sync');
    await expect(settle((attempt) => attempt.resolve(answer), 'throw')).rejects.toThrow('bad answer');
    await expect(settle(() => {}, 'd')).resolves.toBe('d: failed timeout');
    const controller = new AbortController();
    const aborted = settle(() => {}, 'e', controller.signal);
    controller.abort('stop');
    await expect(aborted).resolves.toBe('e: failed stop');
    // A promise returned by the follow-up is what the call's promise settles with.
    await expect(
      inFlight.startDirectThen(
        undefined,
        (_r, attempt) => attempt.resolve(answer),
        request,
        {
          answered: () => Promise.reject(new Error('later')),
          failed: () => 'no',
        },
        undefined,
      ),
    ).rejects.toThrow('later');
  });

  it('expires every attempt that is due, in order, with one timer, and cancels each', async () => {
    vi.useFakeTimers();
    try {
      const inFlight = new InFlight(100);
      const cancelled: number[] = [];
      const outcomes: string[] = [];
      const started: Promise<unknown>[] = [];
      for (let i = 0; i < 5; i++) {
        started.push(
          inFlight
            .start(undefined, (attempt) => {
              attempt.onCancel = () => cancelled.push(i);
              // The third one is answered in time.
              if (i === 2) setTimeout(() => attempt.resolve(answer), 10);
            })
            .then(
              () => outcomes.push(`${i} answered`),
              (error: unknown) =>
                outcomes.push(`${i} ${error instanceof AttemptTimeout ? 'timed out' : error}`),
            ),
        );
        vi.advanceTimersByTime(20);
      }
      expect(vi.getTimerCount()).toBeLessThanOrEqual(2);
      vi.advanceTimersByTime(200);
      await Promise.all(started);
      expect(outcomes).toEqual(['2 answered', '0 timed out', '1 timed out', '3 timed out', '4 timed out']);
      expect(cancelled).toEqual([0, 1, 3, 4]);
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it('cuts off a transport that never answers and ignores cancelling, and one whose cancel throws', async () => {
    const inFlight = new InFlight(30);
    await expect(inFlight.start(undefined, () => {})).rejects.toBeInstanceOf(AttemptTimeout);
    await expect(
      inFlight.start(undefined, (attempt) => {
        attempt.onCancel = () => {
          throw new Error('cannot stop');
        };
      }),
    ).rejects.toBeInstanceOf(AttemptTimeout);
  });

  it('rejects with the caller’s reason when the signal aborts, before or during the attempt', async () => {
    const inFlight = new InFlight(10_000);
    const before = AbortSignal.abort(new Error('gave up first'));
    const send = vi.fn();
    await expect(inFlight.start(before, send)).rejects.toThrow('gave up first');
    expect(send).not.toHaveBeenCalled();

    const controller = new AbortController();
    const cancel = vi.fn();
    const pending = inFlight.start(controller.signal, (attempt) => {
      attempt.onCancel = cancel;
    });
    controller.abort(new Error('gave up'));
    await expect(pending).rejects.toThrow('gave up');
    expect(cancel).toHaveBeenCalledWith(controller.signal.reason);
  });

  it('lets go of the caller’s signal when an attempt ends', async () => {
    const inFlight = new InFlight(10_000);
    const controller = new AbortController();
    const remove = vi.spyOn(controller.signal, 'removeEventListener');
    await inFlight.start(controller.signal, (attempt) => attempt.resolve(answer));
    expect(remove).toHaveBeenCalledTimes(1);
  });

  it('rejects with what send throws', async () => {
    const inFlight = new InFlight(10_000);
    await expect(
      inFlight.start(undefined, () => {
        throw new TypeError('no fetch here');
      }),
    ).rejects.toThrow('no fetch here');
  });

  it('keeps no timer alive once nothing is in flight (a script ends at once)', async () => {
    const child = await import('node:child_process');
    const started = performance.now();
    const run = child.spawnSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        // Through the built client (its attempts are InFlight's): the sources import each other as .js.
        `import { createClient } from ${JSON.stringify(new URL('../dist/index.js', import.meta.url).pathname)};
         const transport = () => new Promise((resolve) => setTimeout(() => resolve({ status: 200, headers: {}, body: '' }), 5));
         const client = createClient({ apiKey: 'k', timeoutMs: 60_000, transport });
         await client.request({ api: 'evm', method: 'GET', path: '/x', idempotent: true });
         console.log('done');`,
      ],
      { encoding: 'utf8', timeout: 30_000 },
    );
    expect(run.stdout.trim()).toBe('done');
    expect(performance.now() - started).toBeLessThan(20_000);
  });
});
