import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { defineRpcMethod, hex, methods } from '@blockwire/rpc/operations';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/v4';
import { buildOpenRpcDocument } from './openrpc.js';
import { call, useEmulator } from './test-support.js';

const t = useEmulator({ anvil: true });
// The meta-schemas' type declarations describe the documents, not the exported values.
const require = createRequire(import.meta.url);
const metaSchema: object = require('@open-rpc/meta-schema').openrpcDocument;
const jsonSchemaMetaSchema: object = require('@json-schema-tools/meta-schema').jsonSchema;
const committed = JSON.parse(readFileSync(new URL('../openrpc.json', import.meta.url), 'utf8'));
type Method = {
  name: string;
  params: { name: string; required: boolean; schema: Record<string, unknown> }[];
  result: { schema: Record<string, unknown> };
  examples: { params: { name: string; value: unknown }[]; result: { value: unknown } }[];
};

/** The JSON-RPC names the method files of @blockwire/rpc declare, read from the files themselves. */
function methodNamesInFiles(): string[] {
  const folder = new URL('../../rpc/src/methods/', import.meta.url);
  return readdirSync(folder)
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
    .flatMap((file) => {
      const text = readFileSync(new URL(file, folder), 'utf8');
      if (!text.includes('defineRpcMethod(')) return [];
      return [/\bmethod: '([^']+)'/.exec(text)![1]!];
    });
}

describe('the OpenRPC document of the node interface', () => {
  it('is the committed openrpc.json (regenerate with `pnpm generate` after changing a method file)', () => {
    expect(committed).toEqual(JSON.parse(JSON.stringify(buildOpenRpcDocument())));
  });

  it('is valid against the OpenRPC meta-schema', () => {
    // Both name their own meta-schema by a URL ajv does not know (their keywords are draft-07's);
    // OpenRPC's refers to the JSON Schema one for every schema in the document.
    const { $schema: _openRpcMeta, ...openRpc } = metaSchema as Record<string, unknown>;
    const { $schema: _jsonSchemaMeta, ...jsonSchema } = jsonSchemaMetaSchema as Record<string, unknown>;
    const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
    // It refers to that one both with and without the trailing slash of its $id.
    ajv.addSchema(jsonSchema).addSchema({ ...jsonSchema, $id: 'https://meta.json-schema.tools' });
    const validate = ajv.compile(openRpc);
    expect(validate(committed) ? [] : validate.errors).toEqual([]);
    // And not a check that passes anything: a method without a name, or a param whose schema is not one, fails it.
    const broken = structuredClone(committed);
    delete broken.methods[0].name;
    expect(validate(broken)).toBe(false);
    broken.methods[0].name = committed.methods[0].name;
    broken.methods[0].params[0].schema = { type: 'hexadecimal' };
    expect(validate(broken)).toBe(false);
  });

  it('lists exactly the methods of the method files, in the order of `methods`', () => {
    const names = (committed.methods as Method[]).map((method) => method.name);
    expect(names).toEqual(methods.map((method) => method.method));
    expect([...names].sort()).toEqual(methodNamesInFiles().sort());
  });

  it('takes a new method file with no other edit: its name, params, result and example appear', () => {
    const scratch = defineRpcMethod({
      id: 'getScratchValue',
      resource: 'rpc',
      action: 'getScratchValue',
      displayName: 'Get Scratch Value',
      summary: 'A method that exists only in this test.',
      examples: [{ input: { slot: '0x1' }, response: '0x2a' }],
      method: 'eth_scratchValue',
      args: ['slot'],
      params: z.object({ slot: z.string().meta({ description: 'A slot.' }) }),
      result: hex,
    });
    const document = buildOpenRpcDocument([...methods, scratch]);
    const added = (document.methods as Method[]).at(-1)!;
    expect(added).toMatchObject({
      name: 'eth_scratchValue',
      params: [{ name: 'slot', required: true, schema: { type: 'string', description: 'A slot.' } }],
      result: { schema: { type: 'string', pattern: '^0x[0-9a-fA-F]*$' } },
      examples: [{ params: [{ name: 'slot', value: '0x1' }], result: { value: '0x2a' } }],
    });
  });

  it("describes each method's arguments in params order, with their wire example", () => {
    const balance = (committed.methods as Method[]).find((method) => method.name === 'eth_getBalance')!;
    expect(balance.params.map((param) => [param.name, param.required])).toEqual([
      ['address', true],
      ['blockTag', false],
    ]);
    expect(balance.params[0]!.schema).toMatchObject({ type: 'string', pattern: '^0x[0-9a-fA-F]{40}$' });
    expect(balance.result.schema).toMatchObject({ type: 'string', format: 'quantity' });
    // The SDK's default blockTag goes on the wire: the example is what a caller sends.
    expect(balance.examples[0]!.params.map((param) => param.value)).toEqual([
      '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
      'latest',
    ]);
  });

  it('is served by the emulator at /openrpc.json and answers rpc.discover at the node URL', async () => {
    const response = await fetch(`${new URL(t.emu.control).origin}/openrpc.json`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual(committed);
    const discovered = await call(`${t.emu.urls.node}/eth/${t.emu.apiKey}`, {
      method: 'POST',
      body: [
        { jsonrpc: '2.0', id: 1, method: 'rpc.discover' },
        { jsonrpc: '2.0', id: 2, method: 'eth_chainId', params: [] },
      ],
    });
    expect(discovered.status).toBe(200);
    expect(discovered.body).toEqual([
      { jsonrpc: '2.0', id: 1, result: committed },
      { jsonrpc: '2.0', id: 2, result: '0x7a69' },
    ]);
  });
});
