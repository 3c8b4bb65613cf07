/**
 * The framework recipes of the streams README, by name (`<!-- recipe: fastify -->` above the
 * block): the consumer tests run exactly this code, so a recipe cannot rot.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { root } from '../../pack.js';
import { recipesOf } from '../../readme-blocks.js';

export const STREAMS_README = 'packages/streams/README.md';

export function recipes(): Map<string, string> {
  const blocks = recipesOf(readFileSync(join(root, STREAMS_README), 'utf8'));
  return new Map([...blocks].map(([name, block]) => [name, block.code]));
}

export function recipe(name: string): string {
  const code = recipes().get(name);
  if (code === undefined) throw new Error(`${STREAMS_README} has no <!-- recipe: ${name} --> block`);
  return code;
}

/** The environment a receiver gets: what the recipes read, and no more of this test's. */
export function receiverEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  return {
    PATH: `${process.execPath.slice(0, process.execPath.lastIndexOf('/'))}:${process.env.PATH ?? ''}`,
    HOME: process.env.HOME,
    LANG: 'C.UTF-8',
    ...extra,
  };
}
