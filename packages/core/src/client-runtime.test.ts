import { describe, expect, it } from 'vitest';
import { createClientWith } from './client.js';
import { TimeoutError, ValidationError } from './errors.js';
import { recordingRuntime } from './recording-runtime.test-support.js';
import { AttemptTimeout } from './transport.js';

describe('createClientWith (a host’s runtime)', () => {
  it('retries with the host’s sleep, waiting what Retry-After asks', async () => {
    const waits: number[] = [];
    const answers = [
      { status: 429, headers: { 'retry-after': '2' }, body: '' },
      { status: 200, headers: {}, body: '{"ok":true}' },
    ];
    const client = createClientWith(
      { apiKey: 'k', transport: async () => answers.shift()! },
      recordingRuntime(waits),
    );
    const response = await client.request({ api: 'evm', method: 'GET', path: '/x', idempotent: true });
    expect(response).toMatchObject({ status: 200, data: { ok: true }, attempts: 2 });
    expect(waits).toEqual([2_000]);
  });

  it('never repeats a write whose outcome is unknown', async () => {
    const waits: number[] = [];
    let sent = 0;
    const client = createClientWith(
      {
        apiKey: 'k',
        transport: async () => {
          sent++;
          return { status: 502, headers: {}, body: '' };
        },
      },
      recordingRuntime(waits),
    );
    await expect(
      client.request({ api: 'streams', method: 'POST', path: '/x', body: {}, idempotent: false }),
    ).rejects.toThrow(/502/);
    expect(sent).toBe(1);
    expect(waits).toEqual([]);
  });

  it('turns an attempt the host timed out into a TimeoutError', async () => {
    const client = createClientWith(
      {
        apiKey: 'k',
        retry: { maxAttempts: 1 },
        transport: () => Promise.reject(new AttemptTimeout()),
      },
      recordingRuntime([]),
    );
    await expect(
      client.request({ api: 'evm', method: 'GET', path: '/x', idempotent: true }),
    ).rejects.toBeInstanceOf(TimeoutError);
  });

  it('asks for a transport when the runtime has no default one', () => {
    expect(() => createClientWith({ apiKey: 'k' }, recordingRuntime([]))).toThrow(ValidationError);
    expect(() => createClientWith({ apiKey: 'k' }, recordingRuntime([]))).toThrow(/transport/);
  });
});
