/**
 * A Next.js App Router project (next from the registry, our packages from their tarballs): the
 * streams README's route handler (`export async function POST(request)`) as
 * app/webhooks/blockwire/route.ts, built with `next build` and served by `next start` as a user
 * deploys it, fed the emulator's real signed deliveries.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startServer } from './harness/processes.js';
import { type ConsumerProject, consumerProject, removeTarballs } from './harness/project.js';
import { receiverEnv, recipe } from './harness/recipes.js';
import {
  deliverPayment,
  EXPECTED_GUARD_ANSWERS,
  guardAnswers,
  stagesLogged,
  startService,
} from './harness/service.js';

const NEXT_STACK = {
  name: 'nextjs',
  dependencies: {
    next: '16.4.6',
    react: '19.3.1',
    'react-dom': '19.3.1',
    typescript: '5.9.3',
    '@types/react': '19.3.3',
    '@types/node': '24.19.4',
  },
  blockwire: ['@blockwire/core', '@blockwire/streams'],
};

let project: ConsumerProject;
beforeAll(async () => {
  project = await consumerProject(NEXT_STACK);
  const app = join(project.dir, 'app');
  mkdirSync(join(app, 'webhooks', 'blockwire'), { recursive: true });
  writeFileSync(
    join(app, 'layout.tsx'),
    'export default function Root({ children }: { children: React.ReactNode }) {\n  return <html><body>{children}</body></html>;\n}\n',
  );
  writeFileSync(join(app, 'webhooks', 'blockwire', 'route.ts'), recipe('nextjs'));
  await project.run(join(project.dir, 'node_modules', '.bin', 'next'), ['build'], {
    env: receiverEnv({ NEXT_TELEMETRY_DISABLED: '1' }),
    timeoutMs: 400_000,
  });
}, 900_000);
afterAll(async () => {
  await project?.remove();
  await removeTarballs();
});

describe('Next.js App Router (next build, next start)', () => {
  it('the route handler recipe takes real signed deliveries, 401 before parse', async () => {
    const service = await startService();
    try {
      const port = await freePort();
      const url = `http://127.0.0.1:${port}/webhooks/blockwire`;
      const server = await startServer(
        join(project.dir, 'node_modules', '.bin', 'next'),
        ['start', '--hostname', '127.0.0.1', '--port', String(port)],
        {
          cwd: project.dir,
          env: receiverEnv({ NEXT_TELEMETRY_DISABLED: '1', BLOCKWIRE_WEBHOOK_SECRET: service.secret }),
          url,
          readyTimeoutMs: 60_000,
        },
      );
      try {
        expect(await guardAnswers(service, url), server.output()).toEqual(EXPECTED_GUARD_ANSWERS);
        await deliverPayment(service, url, server.output);
        for (let i = 0; i < 50 && !stagesLogged(server.output()); i++) await sleep(100);
        expect(stagesLogged(server.output()), `the callback logs each stage:\n${server.output()}`).toBe(true);
      } finally {
        await server.stop();
      }
    } finally {
      await service.close();
    }
  }, 180_000);
});
