/**
 * Every JSON-RPC method's result, from the emulator's node interface (a real anvil), passes the
 * rpc package's result schema. The REST routes are held to their response schemas by
 * examples.test.ts (every example through the SDK) and to the contract's field lists by
 * contract-shapes.test.ts.
 */
import { encodeParams, methods } from '@blockwire/rpc/operations';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Emulator } from './server.js';
import { call, emulator } from './test-support.js';

let emu: Emulator;

beforeAll(async () => {
  emu = await emulator({ anvil: true });
});
afterAll(async () => {
  await emu?.close();
});

describe('results of every JSON-RPC method', () => {
  // Each method file's own examples, taken from the seeded chain: a new method is covered here
  // by its file alone.
  const cases = methods.flatMap((method) =>
    method.examples.map((example, index) => [`${method.id} example ${index}`, method, example] as const),
  );

  it.each(cases)('%s returns a result its schema accepts', async (_name, method, example) => {
    const reply = (
      await call(`${emu.urls.node}/eth/${emu.apiKey}`, {
        method: 'POST',
        body: {
          jsonrpc: '2.0',
          id: 1,
          method: method.method,
          params: encodeParams(method, example.input as never),
        },
      })
    ).body;
    expect(reply.error).toBeUndefined();
    const parsed = method.result.safeParse(reply.result);
    expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
    // An example that finds something on the seeded chain finds it on the emulator (anvil has no uncles).
    if (example.response !== null) expect(reply.result).not.toBeNull();
  });
});
