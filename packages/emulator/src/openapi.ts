/**
 * The OpenAPI 3.1 document of the REST contract, built from the operations themselves: paths,
 * parameters (by their wire names), bodies, responses and descriptions all come from the same
 * objects the SDK runs and the emulator serves, so the document cannot drift from either.
 * The emulator serves it at `/openapi.json`; the package ships it as `openapi.json`.
 */
import {
  type Api,
  DEFAULT_BASE_URLS,
  describeFields,
  type FieldInfo,
  fieldsIn,
  inputJsonSchema,
  type JsonSchema,
  type Operation,
} from '@blockwire/core';
import type * as z from 'zod/v4';
import { restOperations } from './operations.js';

/** The document's own version: the service shows none, and a package release must not make the committed file stale. */
const DOCUMENT_VERSION = '1.0.0';

const API_TITLES: Record<Exclude<Api, 'node'>, string> = {
  evm: 'EVM data: token prices and entities',
  solana: 'Solana data: token prices',
  streams: 'Streams: EVM stream status, settings, Bitcoin streams',
};

/** The OpenAPI 3.1 document of the REST contract, from the operations. */
export function buildOpenApiDocument(): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const operation of restOperations) {
    const api = operation.api as Exclude<Api, 'node'>;
    paths[operation.path] ??= {
      servers: [{ url: DEFAULT_BASE_URLS[api], description: API_TITLES[api] }],
    };
    paths[operation.path]![operation.method.toLowerCase()] = describeOperation(operation);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Blockwire service contract',
      version: DOCUMENT_VERSION,
      description:
        'The REST interfaces of the service as the Blockwire SDK and emulator implement them. Generated from the operation definitions; do not edit by hand.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: Object.entries(API_TITLES).map(([api, description]) => ({
      url: DEFAULT_BASE_URLS[api as Api],
      description,
    })),
    security: [{ apiKey: [] }],
    tags: [...new Set(restOperations.map((operation) => operation.resource))].map((name) => ({ name })),
    paths,
    components: {
      securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' } },
      schemas: {
        Error: {
          type: 'object',
          properties: { message: { type: 'string', description: 'What went wrong, in words.' } },
        },
      },
    },
  };
}

function describeOperation(operation: Operation): Record<string, unknown> {
  const fields = new Map(
    describeFields(operation.input, operation.advanced).map((field) => [field.name, field]),
  );
  const placements = fieldsIn(operation);
  const parameters = placements
    .filter((placement) => placement.in !== 'body')
    .map((placement) => {
      const field = fields.get(placement.field)!;
      return {
        name: placement.wire,
        in: placement.in,
        // A path parameter is always required, whatever the schema's default says.
        required: placement.in === 'path' || field.required,
        description: field.description,
        schema: withoutMeta(field.schema),
      };
    });
  const bodyFields = placements.filter((placement) => placement.in === 'body');
  const [example] = operation.examples;
  const description: Record<string, unknown> = {
    operationId: operation.id,
    summary: operation.displayName,
    description: operation.summary,
    tags: [operation.resource],
    'x-blockwire-action': { resource: operation.resource, action: operation.action },
    parameters,
  };
  if (bodyFields.length > 0) {
    description.requestBody = {
      required: bodyFields.some((placement) => fields.get(placement.field)!.required),
      content: { 'application/json': { schema: bodySchema(bodyFields, fields) } },
    };
  }
  description.responses = {
    '200': {
      description: 'Success',
      content: {
        'application/json': { schema: responseSchema(operation.response), example: example.response },
      },
    },
    default: {
      description: 'An error: 400 invalid input, 401 bad key, 404 not found, 429 rate limited, 5xx',
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
    },
  };
  return description;
}

function bodySchema(
  placements: { field: string; wire: string }[],
  fields: Map<string, FieldInfo>,
): JsonSchema {
  const required = placements.filter((p) => fields.get(p.field)!.required).map((p) => p.wire);
  return {
    type: 'object',
    properties: Object.fromEntries(placements.map((p) => [p.wire, fields.get(p.field)!.schema])),
    ...(required.length > 0 ? { required } : {}),
    additionalProperties: false,
  };
}

/** The body the service sends: the response schema's input side (before the SDK's transforms). */
function responseSchema(schema: z.core.$ZodType): JsonSchema {
  return withoutMeta(inputJsonSchema(schema));
}

/** A field schema as a parameter's `schema`: no `$schema` key, nothing OpenAPI does not know. */
function withoutMeta(schema: JsonSchema): JsonSchema {
  const { $schema: _schema, placeholder: _placeholder, options, ...rest } = schema;
  return options ? { ...rest, 'x-options': options } : rest;
}
