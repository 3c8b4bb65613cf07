/**
 * The OpenRPC 1.3 document of the node interface, built from the method files of `@blockwire/rpc`
 * (its `methods` table): each method's name, summary, arguments in `params` order with their
 * schemas and descriptions, its result schema and its example all come from the objects the SDK
 * runs and the emulator checks calls with. The emulator serves it at `/openrpc.json` and answers
 * `rpc.discover` with it; the package ships it as `openrpc.json`.
 */
import { DEFAULT_BASE_URLS, describeFields, type JsonSchema } from '@blockwire/core';
import { encodeParams, hex, methods, type RpcMethod } from '@blockwire/rpc/operations';
import * as z from 'zod/v4';

/** The document's own version: the service shows none, and a package release must not make the committed file stale. */
const DOCUMENT_VERSION = '1.0.0';

/** The OpenRPC version the document follows. */
const OPENRPC_VERSION = '1.3.2';

let built: Record<string, unknown> | undefined;

/** The document, built once: what `/openrpc.json` and `rpc.discover` answer. */
export function openRpcDocument(): Record<string, unknown> {
  built ??= buildOpenRpcDocument();
  return built;
}

/** The OpenRPC 1.3 document of the node interface, from the method definitions (`methods` unless given). */
export function buildOpenRpcDocument(table: readonly RpcMethod[] = methods): Record<string, unknown> {
  return {
    openrpc: OPENRPC_VERSION,
    info: {
      title: 'Blockwire node interface',
      version: DOCUMENT_VERSION,
      description:
        'The typed JSON-RPC 2.0 reads of the node interface as the Blockwire SDK and emulator implement them; the node forwards other standard Ethereum reads too. Generated from the method definitions; do not edit by hand.',
      license: { name: 'MIT', url: 'https://opensource.org/licenses/MIT' },
    },
    servers: [
      {
        name: 'node',
        url: `${DEFAULT_BASE_URLS.node}/{chain}/{apiKey}`,
        summary: 'One chain’s node; the API key is the last path segment.',
        variables: {
          chain: { default: 'eth', description: 'The chain’s name, e.g. eth, polygon, avalanche.' },
          apiKey: { default: 'YOUR_API_KEY', description: 'Your API key.' },
        },
      },
    ],
    methods: table.map(describeMethod),
  };
}

function describeMethod(method: RpcMethod): Record<string, unknown> {
  const fields = new Map(describeFields(method.params).map((field) => [field.name, field]));
  const params = method.args.map((name) => {
    const field = fields.get(name)!;
    return {
      name,
      ...(field.description ? { description: field.description } : {}),
      required: field.required,
      schema: withoutMeta(field.schema),
    };
  });
  const [example] = method.examples;
  const description: Record<string, unknown> = {
    name: method.method,
    summary: method.displayName,
    description: method.summary,
    paramStructure: 'by-position',
    params,
    result: { name: 'result', schema: resultSchema(method.result) },
    'x-blockwire-action': { resource: method.resource, action: method.action, sdk: method.id },
  };
  if (example) description.examples = [examplePairing(method, example)];
  return description;
}

/** The example the emulator answers, with its params as they go on the wire. */
function examplePairing(method: RpcMethod, example: RpcMethod['examples'][number]) {
  const wire = encodeParams(method, example.input as never);
  // Trailing arguments left to their defaults are left out, as a caller would.
  let length = wire.length;
  while (length > 0 && wire[length - 1] === undefined) length--;
  return {
    name: `${method.id} example`,
    params: method.args.slice(0, length).map((name, i) => ({ name, value: wire[i] ?? null })),
    result: { name: 'result', value: example.response },
  };
}

/**
 * A result as the node sends it. The SDK checks hex fields with a fast function, which JSON
 * Schema cannot read: the document says what that function checks.
 */
function resultSchema(schema: z.core.$ZodType): JsonSchema {
  const hexDef = hex._zod.def;
  return withoutMeta(
    z.toJSONSchema(schema, {
      io: 'output',
      unrepresentable: 'any',
      override(ctx) {
        if ((ctx.zodSchema as { _zod: { def: unknown } })._zod.def === hexDef) {
          Object.assign(ctx.jsonSchema, { type: 'string', pattern: '^0x[0-9a-fA-F]*$' });
        }
      },
    }) as JsonSchema,
  );
}

/** A schema as a content descriptor's `schema`: no `$schema` key, no n8n presentation hints. */
function withoutMeta(schema: JsonSchema): JsonSchema {
  const { $schema: _schema, placeholder: _placeholder, options, ...rest } = schema;
  return options ? { ...rest, 'x-options': options } : rest;
}
