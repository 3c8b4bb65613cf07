import { defineOperation, issuesOf } from '@blockwire/core';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/v4';
import { createRouter } from './router.js';

const input = z.strictObject({
  id: z.string().meta({ description: 'The id.' }),
  filter: z
    .strictObject({ topic: z.string().meta({ description: 'A topic.' }) })
    .meta({ description: 'A filter.' }),
  toBlock: z.number().int().optional().meta({ description: 'The last block.' }),
});

const setFilter = defineOperation({
  id: 'setFilterForRouterTest',
  resource: 'routerTest',
  action: 'setFilter',
  displayName: 'Set Filter',
  summary: 'An operation that exists only in this test',
  examples: [{ input: { id: 'a', filter: { topic: 't' } }, response: {} }],
  api: 'streams',
  method: 'POST',
  path: '/things/{id}',
  input,
  fields: { id: 'path', filter: 'body', toBlock: { in: 'body', as: 'to_block' } },
  response: z.looseObject({}),
  idempotent: true,
});

const router = createRouter([{ operation: setFilter, serve: async () => ({ status: 200, body: {} }) }]);

async function serve(body: unknown) {
  const match = router.match('POST', '/things/a');
  if (match.kind !== 'route') throw new Error('no route');
  return router.serve(match, { query: {}, body });
}

describe('router', () => {
  it('words each bad field as the SDK does, under its wire name', async () => {
    const body = { filter: { topic: 't', extra: 1 }, to_block: 'late' };
    const reply = await serve(body);
    expect(reply.status).toBe(400);
    const sdk = issuesOf(input.safeParse({ id: 'a', filter: body.filter, toBlock: body.to_block }).error!);
    const issues = (reply.body as { issues: { field: string; message: string }[] }).issues;
    expect(issues.map((issue) => issue.message)).toEqual(sdk.map((issue) => issue.message));
    expect(issues.map((issue) => issue.field)).toEqual(['filter', 'to_block']);
    expect(issues[0]!.message).toBe('unknown field(s) extra');
  });

  it('serves a valid request with its validated input', async () => {
    const reply = await serve({ filter: { topic: 't' }, to_block: 5 });
    expect(reply).toMatchObject({ status: 200, input: { id: 'a', filter: { topic: 't' }, toBlock: 5 } });
  });
});
