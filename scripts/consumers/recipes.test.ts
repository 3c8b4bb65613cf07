/** Every recipe of the streams README is run by a consumer test: none can rot untested. */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { recipes, STREAMS_README } from './harness/recipes.js';

const tests = readdirSync(import.meta.dirname)
  .filter((file) => file.endsWith('.test.ts') && file !== 'recipes.test.ts')
  .map((file) => ({ file, source: readFileSync(join(import.meta.dirname, file), 'utf8') }));

describe(`${STREAMS_README} recipes`, () => {
  it('has one for every framework and runtime the issue names', () => {
    expect([...recipes().keys()].sort()).toEqual(
      [
        'bun',
        'cloudflare-worker',
        'deno',
        'express',
        'fastify',
        'hono-node',
        'hono-workers',
        'koa',
        'nextjs',
        'node-http',
      ].sort(),
    );
  });

  it.each([...recipes().keys()])('%s is run by a consumer test', (name) => {
    const runners = tests.filter(({ source }) => source.includes(`'${name}'`)).map(({ file }) => file);
    expect(runners, `no file in scripts/consumers names the recipe '${name}'`).not.toEqual([]);
  });
});
