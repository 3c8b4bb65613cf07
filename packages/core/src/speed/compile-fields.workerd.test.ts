/**
 * workerd as a request meets it: code from text was allowed while the Worker started and is
 * refused now. A file of its own, so that zod is first used here under workerd's user agent
 * (zod reads it once, and then never makes code of its own there).
 */
import { afterEach, expect, it, vi } from 'vitest';

afterEach(() => vi.unstubAllGlobals());

it('answers the call that met the refusal with zod’s verdict, and the calls after it', async () => {
  vi.stubGlobal('navigator', { userAgent: 'Cloudflare-Workers' });
  const core = await import('../index.js');
  const z = await import('zod/v4');
  const answers = [
    '{"usdPrice":1.5,"tokenName":"USD Coin"}',
    '{"usdPrice":"1.5"}',
    '{"usdPrice":2,"tokenName":"Tether"}',
  ];
  const client = core.createClient({
    apiKey: 'test-2f9a7c31e8d54b60',
    retry: false,
    transport: async () => ({ status: 200, headers: {}, body: answers.shift()! }),
  });
  const getPrice = core.defineOperation({
    id: 'getPrice',
    resource: 'testPrice',
    action: 'get',
    displayName: 'Get Price',
    summary: 'A token price',
    examples: [{ input: {}, response: { usdPrice: 1 } }],
    api: 'evm',
    method: 'GET',
    path: '/price',
    input: z.object({}),
    fields: {},
    response: z.looseObject({ usdPrice: z.number(), tokenName: z.string().optional() }),
    idempotent: true,
  });
  // The response schema is first compiled inside the call, where code may no longer be made.
  let refusals = 0;
  const refuse = () => {
    refusals++;
    throw new EvalError('Code generation from strings disallowed for this context');
  };
  vi.stubGlobal('Function', new Proxy(Function, { construct: refuse, apply: refuse }));
  await expect(core.runOperation(client, getPrice, {})).resolves.toEqual({
    usdPrice: 1.5,
    tokenName: 'USD Coin',
  });
  expect(refusals).toBe(1);
  await expect(core.runOperation(client, getPrice, {})).rejects.toBeInstanceOf(core.ResponseValidationError);
  await expect(core.runOperation(client, getPrice, {})).resolves.toEqual({
    usdPrice: 2,
    tokenName: 'Tether',
  });
  // Refused once, asked once.
  expect(refusals).toBe(1);
});
