/**
 * The webhook receiver recipes of the streams README for the Node frameworks, each run as written
 * in a project outside the workspace (the framework from the registry, our packages from their
 * tarballs) and fed the emulator's real signed deliveries.
 */
import { writeFileSync } from 'node:fs';
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

const NODE_FRAMEWORKS_STACK = {
  name: 'node-frameworks',
  dependencies: {
    express: '5.3.0',
    fastify: '5.12.8',
    koa: '3.3.0',
    hono: '4.13.19',
    '@hono/node-server': '2.1.9',
  },
  blockwire: ['@blockwire/core', '@blockwire/streams'],
};

const FRAMEWORKS = [
  { stack: 'node:http', recipe: 'node-http' },
  { stack: 'Express 5', recipe: 'express' },
  { stack: 'Fastify 5', recipe: 'fastify' },
  { stack: 'Koa 3', recipe: 'koa' },
  { stack: 'Hono 4 on Node (@hono/node-server)', recipe: 'hono-node' },
];

let project: ConsumerProject;
beforeAll(async () => {
  project = await consumerProject(NODE_FRAMEWORKS_STACK);
}, 600_000);
afterAll(async () => {
  await project?.remove();
  await removeTarballs();
});

describe.concurrent('webhook receivers on Node, as the streams README writes them', () => {
  it.each(FRAMEWORKS)(
    '$stack: 401 before parse, the empty verification POST and every real delivery answered',
    async ({ recipe: name }) => {
      const service = await startService();
      try {
        const file = join(project.dir, `${name}.mjs`);
        writeFileSync(file, recipe(name));
        const port = await freePort();
        const url = `http://127.0.0.1:${port}/webhooks/blockwire`;
        const server = await startServer(process.execPath, [file], {
          cwd: project.dir,
          env: receiverEnv({ PORT: String(port), BLOCKWIRE_WEBHOOK_SECRET: service.secret }),
          url,
        });
        try {
          expect(await guardAnswers(service, url), server.output()).toEqual(EXPECTED_GUARD_ANSWERS);
          await deliverPayment(service, url, server.output);
          for (let i = 0; i < 50 && !stagesLogged(server.output()); i++) await sleep(100);
          expect(stagesLogged(server.output()), `the callback logs each stage:\n${server.output()}`).toBe(
            true,
          );
        } finally {
          await server.stop();
        }
      } finally {
        await service.close();
      }
    },
    120_000,
  );
});
