import { baseUrlsFor, startServer, type TestServer } from '@blockwire/testing';
import { afterEach, describe, expect, it } from 'vitest';
import * as z from 'zod/v4';
import { createClient } from './create-client.js';
import { defineEndpoint } from './endpoint.js';
import { ValidationError } from './errors.js';
import { describeAction } from './metadata.js';
import type { Operation } from './operation.js';

const presented = {
  resource: 'widget',
  displayName: 'Widget',
  summary: 'A widget of the test service',
  api: 'streams',
  idempotent: true,
} as const;

const getWidget = defineEndpoint({
  ...presented,
  id: 'getWidget',
  action: 'get',
  examples: [{ input: { widgetId: 'w1' }, response: { id: 'w1' } }],
  method: 'GET',
  path: '/widgets/{widgetId}',
  input: z.strictObject({ widgetId: z.string().min(1).meta({ description: 'The widget’s id' }) }),
  fields: { widgetId: 'path' },
  response: z.looseObject({ id: z.string() }),
});

const listWidgets = defineEndpoint({
  ...presented,
  id: 'listWidgets',
  action: 'getMany',
  examples: [{ input: {}, response: [] }],
  method: 'GET',
  path: '/widgets',
  input: z.strictObject({ limit: z.number().int().optional().meta({ description: 'Most widgets' }) }),
  fields: { limit: 'query' },
  response: z.array(z.looseObject({ id: z.string() })),
});

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function clientAnswering(body: unknown) {
  server = await startServer(() => ({ body }));
  return createClient({ apiKey: 'test-2f9a7c31e8d54b60', baseUrls: baseUrlsFor(server), retry: false });
}

describe('defineEndpoint', () => {
  it('gives the operation and an SDK function that sends it', async () => {
    expect(getWidget.operation.id).toBe('getWidget');
    expect(getWidget.input).toBe(getWidget.operation.input);
    const client = await clientAnswering({ id: 'w1', colour: 'blue' });
    const widget: { id: string } = await getWidget.call(client, { widgetId: 'w1' });
    expect(widget).toEqual({ id: 'w1', colour: 'blue' });
    expect(server!.requests.map((request) => `${request.method} ${request.path}`)).toEqual([
      'GET /widgets/w1',
    ]);
    await client.close();
  });

  it('checks the input before sending, naming the field', async () => {
    const client = await clientAnswering({ id: 'w1' });
    await expect(getWidget.call(client, { widgetId: '' })).rejects.toThrow(ValidationError);
    await expect(getWidget.call(client, { widgetId: '' })).rejects.toThrow(/widgetId/);
    // @ts-expect-error: an endpoint with a required field takes its input
    await expect(getWidget.call(client)).rejects.toThrow(/widgetId/);
    expect(server!.requests).toHaveLength(0);
    await client.close();
  });

  it('lets the input be left out when every field is optional', async () => {
    const client = await clientAnswering([{ id: 'w1' }]);
    await expect(listWidgets.call(client)).resolves.toEqual([{ id: 'w1' }]);
    expect(server!.requests[0]!.url).toBe('/widgets');
    await client.close();
  });

  it('checks the operation as defineOperation does', () => {
    expect(() =>
      defineEndpoint({
        ...(getWidget.operation as Operation),
        id: 'broken',
        action: 'broken',
        path: '/widgets/{id}',
      }),
    ).toThrow(/path \/widgets\/\{id\} has \{id\} but its path fields are widgetId/);
  });

  it('takes an SDK function of its own, with what it accepts, and presents that input', async () => {
    const manyInput = z.strictObject({
      widgetIds: z.array(z.string()).meta({ description: 'Widgets to get, one request each' }),
    });
    const getWidgets = defineEndpoint(getWidget.operation, {
      input: manyInput,
      call: (client, input: z.input<typeof manyInput>) =>
        Promise.all(input.widgetIds.map((widgetId) => getWidget.call(client, { widgetId }))),
    });
    expect(getWidgets.operation).toBe(getWidget.operation);
    expect(describeAction(getWidgets).fields.map((field) => field.name)).toEqual(['widgetIds']);
    const client = await clientAnswering({ id: 'w' });
    await expect(getWidgets.call(client, { widgetIds: ['a', 'b'] })).resolves.toHaveLength(2);
    expect(server!.requests).toHaveLength(2);
    await client.close();
  });

  it('refuses an SDK function input with an undocumented field', () => {
    expect(() =>
      defineEndpoint(getWidget.operation, {
        input: z.strictObject({ widgetIds: z.array(z.string()) }),
        call: async () => [],
      }),
    ).toThrow(/widgetIds have no description/);
  });
});
