import { execFileSync, spawn } from 'node:child_process';
import { connect } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startPostgres, startRedis } from './services.js';
import { skipped } from './skips.js';

const accepts = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

describe.skipIf(skipped('postgresql'))('startPostgres', () => {
  it('runs a cluster of its own on 127.0.0.1 and removes it on stop', async () => {
    const postgres = await startPostgres();
    try {
      const url = postgres.createDatabase('services_test');
      expect(postgres.createDatabase('services_test')).toBe(url);
      const answer = execFileSync('psql', [url, '-tAc', 'SELECT current_database(), 6 * 7'], {
        encoding: 'utf8',
      });
      expect(answer.trim()).toBe('services_test|42');
    } finally {
      postgres.stop();
    }
    expect(await accepts(postgres.port)).toBe(false);
  }, 120_000);
});

describe.skipIf(skipped('redis'))('startRedis', () => {
  it('answers PING and is gone after stop', async () => {
    const redis = await startRedis();
    try {
      const reply = await new Promise<string>((resolve, reject) => {
        const socket = connect(redis.port, '127.0.0.1', () => socket.write('PING\r\n'));
        socket.once('data', (data) => {
          socket.destroy();
          resolve(data.toString());
        });
        socket.once('error', reject);
      });
      expect(reply).toBe('+PONG\r\n');
    } finally {
      await redis.stop();
    }
    expect(await accepts(redis.port)).toBe(false);
  }, 120_000);
});

describe.skipIf(skipped('postgresql', 'redis'))(
  'a test process killed before it could stop its servers',
  () => {
    it('leaves neither PostgreSQL nor Redis running', async () => {
      // A runner that kills its worker on a timeout runs no exit handler: the servers must go anyway.
      // Plain Node strips the types but does not map the sources' `./x.js` imports to `./x.ts`.
      const script = `
      import { registerHooks } from 'node:module';
      registerHooks({
        resolve(specifier, context, next) {
          try { return next(specifier, context); }
          catch (error) {
            if (!specifier.startsWith('.') || !specifier.endsWith('.js')) throw error;
            return next(specifier.replace(/\\.js$/, '.ts'), context);
          }
        },
      });
      const { startPostgres, startRedis } = await import(${JSON.stringify(join(import.meta.dirname, 'services.ts'))});
      const postgres = await startPostgres();
      const redis = await startRedis();
      process.stdout.write(JSON.stringify({ postgres: postgres.port, redis: redis.port }) + '\\n');
      setInterval(() => {}, 60_000);`;
      const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      const ports = await new Promise<{ postgres: number; redis: number }>((resolve, reject) => {
        child.stdout.setEncoding('utf8').once('data', (line: string) => resolve(JSON.parse(line)));
        child.once('exit', (code) => reject(new Error(`the child exited ${code}`)));
      });
      expect(await accepts(ports.postgres)).toBe(true);
      child.kill('SIGKILL');
      await expect.poll(() => accepts(ports.postgres), { timeout: 15_000, interval: 200 }).toBe(false);
      await expect.poll(() => accepts(ports.redis), { timeout: 15_000, interval: 200 }).toBe(false);
    }, 120_000);
  },
);
