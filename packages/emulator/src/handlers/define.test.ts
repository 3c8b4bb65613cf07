import type { Operation } from '@blockwire/core';
import { getEvmTokenPriceOperation } from '@blockwire/prices/operations';
import {
  addBitcoinStreamAddressOperation,
  getBitcoinStreamOperation,
  replayBitcoinBlockOperation,
} from '@blockwire/streams/operations';
import { describe, expect, it } from 'vitest';
import { checkRoutes, defineHandler, defineRoutes, notFound } from './define.js';

const STREAM_ID = '0da99a82-5b1f-48da-962b-d9f5f4239942';

describe('defineHandler', () => {
  it('answers 200 with a reply that fits the response schema', async () => {
    const route = defineHandler(getBitcoinStreamOperation, ({ id }) => ({ id, status: 'active' as const }));
    expect(await route.serve({ id: STREAM_ID })).toEqual({
      status: 200,
      body: { id: STREAM_ID, status: 'active' },
    });
  });

  it.each([
    ['a string for an address change', addBitcoinStreamAddressOperation, 'bc1q…'],
    ['a number for a replay', replayBitcoinBlockOperation, 42],
    ['a stream without its id', getBitcoinStreamOperation, { status: 'active' }],
    ['a price without usdPrice', getEvmTokenPriceOperation, { possibleSpam: false, verifiedContract: true }],
  ])(
    'turns a wrong reply (%s) into a 500 naming the operation, never a silent wrong answer',
    async (_what, operation, reply) => {
      const route = defineHandler(operation as Operation, () => reply);
      const result = await route.serve({});
      expect(result.status).toBe(500);
      expect((result.body as { message: string }).message).toContain(`its reply to ${operation.id}`);
    },
  );

  it('answers a refusal with its status and message', async () => {
    const route = defineHandler(getBitcoinStreamOperation, ({ id }) => {
      throw notFound(`id: no Bitcoin stream ${id}`);
    });
    expect(await route.serve({ id: STREAM_ID })).toEqual({
      status: 404,
      body: { message: `id: no Bitcoin stream ${STREAM_ID}` },
    });
  });

  it('lets any other failure through, for the server to answer 500', async () => {
    const route = defineHandler(getBitcoinStreamOperation, () => {
      throw new Error('bug');
    });
    await expect(route.serve({ id: STREAM_ID })).rejects.toThrow('bug');
  });
});

describe('checkRoutes', () => {
  const route = defineHandler(getBitcoinStreamOperation, ({ id }) => ({ id }));
  it('refuses a missing, doubled or unknown route at start', () => {
    expect(() => checkRoutes([route], [getBitcoinStreamOperation, replayBitcoinBlockOperation])).toThrow(
      /missing replayBitcoinBlock/,
    );
    expect(() => checkRoutes([route, route], [getBitcoinStreamOperation])).toThrow(
      /served twice getBitcoinStream/,
    );
    expect(() => checkRoutes([route], [])).toThrow(/unknown getBitcoinStream/);
    expect(() => checkRoutes([route], [getBitcoinStreamOperation])).not.toThrow();
  });
});

describe('defineRoutes', () => {
  const operations = [getBitcoinStreamOperation, replayBitcoinBlockOperation] as const;

  it('serves each operation with the handler named by its id', async () => {
    const routes = defineRoutes(operations, {
      getBitcoinStream: ({ id }) => ({ id, status: 'active' as const }),
      replayBitcoinBlock: () => {
        throw notFound('no block');
      },
    });
    expect(routes.map((route) => route.operation)).toEqual([...operations]);
    expect(await routes[0]!.serve({ id: STREAM_ID })).toEqual({
      status: 200,
      body: { id: STREAM_ID, status: 'active' },
    });
    expect((await routes[1]!.serve({})).status).toBe(404);
  });

  it('does not compile, and does not start, with a handler missing or one for no operation', () => {
    const reply = ({ id }: { id: string }) => ({ id });
    // @ts-expect-error replayBitcoinBlock has no handler
    expect(() => defineRoutes(operations, { getBitcoinStream: reply })).toThrow(
      'missing replayBitcoinBlock; unknown none',
    );
    expect(() =>
      defineRoutes([getBitcoinStreamOperation], {
        getBitcoinStream: reply,
        // @ts-expect-error getBitcoinStreams is no operation of the table
        getBitcoinStreams: reply,
      }),
    ).toThrow('missing none; unknown getBitcoinStreams');
  });
});
