// The two builds and the export conditions that choose between them: Node.js gets undici; a
// runtime with fetch only (edge, browser, Deno, Bun) gets a build with nothing of undici or Node.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { startServer } from '@blockwire/testing';
import { describe, expect, it } from 'vitest';

const packageDir = fileURLToPath(new URL('..', import.meta.url));
const dist = (file: string) => new URL(`../dist/${file}`, import.meta.url);

/** Where `specifier` resolves with these export conditions, as Node.js itself resolves it. */
function resolveWith(condition: string | undefined, specifier: string, kind: 'import' | 'require') {
  const code =
    kind === 'import'
      ? `console.log(import.meta.resolve(${JSON.stringify(specifier)}))`
      : `console.log(require.resolve(${JSON.stringify(specifier)}))`;
  const run = spawnSync(
    process.execPath,
    [
      ...(condition ? [`--conditions=${condition}`] : []),
      ...(kind === 'import' ? ['--input-type=module'] : []),
      '-e',
      code,
    ],
    { cwd: packageDir, encoding: 'utf8' },
  );
  if (run.status !== 0) throw new Error(run.stderr);
  return run.stdout.trim().replace(/^.*\/dist\//, '');
}

describe('export conditions', () => {
  it.each(['workerd', 'edge-light', 'worker', 'browser', 'deno', 'bun', 'react-native'])(
    'give the fetch build to %s',
    (condition) => {
      expect(resolveWith(condition, '@blockwire/core', 'import')).toBe('index.fetch.js');
      expect(resolveWith(condition, '@blockwire/core', 'require')).toBe('index.fetch.cjs');
      expect(resolveWith(condition, '@blockwire/core/internal', 'import')).toBe('internal.fetch.js');
    },
  );

  it('give Node.js the undici build', () => {
    expect(resolveWith(undefined, '@blockwire/core', 'import')).toBe('index.js');
    expect(resolveWith(undefined, '@blockwire/core', 'require')).toBe('index.cjs');
    expect(resolveWith('node', '@blockwire/core/internal', 'import')).toBe('internal.js');
  });
});

describe('the fetch build', () => {
  it.each(['index.fetch.js', 'index.fetch.cjs', 'internal.fetch.js', 'internal.fetch.cjs'])(
    '%s holds nothing of undici or Node.js',
    (file) => {
      const code = readFileSync(dist(file), 'utf8');
      expect(code).not.toMatch(/undici/);
      expect(code).not.toMatch(/["']node:/);
      expect(code).not.toMatch(/\bprocess\.|\bBuffer\./);
    },
  );

  it('sends with fetch by default, without a User-Agent of its own, and says what to use instead of undici', async () => {
    const server = await startServer(() => ({ body: { usdPrice: 1 } }));
    try {
      const core = (await import(
        /* @vite-ignore */ dist('index.fetch.js').href
      )) as typeof import('./index.js');
      const client = core.createClient({ apiKey: 'edge-key', baseUrls: { evm: server.url } });
      const response = await client.request({ api: 'evm', method: 'GET', path: '/price', idempotent: true });
      expect(response.data).toEqual({ usdPrice: 1 });
      expect(server.requests[0]!.headers['x-api-key']).toBe('edge-key');
      // What fetch itself sends, not blockwire/…: browsers set their own.
      expect(server.requests[0]!.headers['user-agent']).not.toMatch(/^blockwire/);
      expect(() => core.createUndiciTransport()).toThrow(/needs Node\.js.*createFetchTransport/);
    } finally {
      await server.close();
    }
  });
});
