import { readFileSync } from 'node:fs';
import { buildRequest, encodeQuery } from '@blockwire/core/internal';
import { validate } from '@readme/openapi-parser';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/v4';
import { buildOpenApiDocument } from './openapi.js';
import { restOperations } from './operations.js';
import { useEmulator } from './test-support.js';

const t = useEmulator();
const committed = JSON.parse(readFileSync(new URL('../openapi.json', import.meta.url), 'utf8'));
type Paths = Record<string, Record<string, { operationId?: string; parameters?: { name: string }[] }>>;

describe('the OpenAPI document', () => {
  it('is the committed openapi.json (regenerate with `pnpm generate` after changing an operation)', () => {
    expect(committed).toEqual(JSON.parse(JSON.stringify(buildOpenApiDocument())));
  });

  it('is a valid OpenAPI 3.1 document', async () => {
    const result = await validate(structuredClone(committed));
    expect(result.valid ? [] : result.errors).toEqual([]);
  });

  it('lists every operation once, under its path and method, with the wire names of its parameters', () => {
    const paths = committed.paths as Paths;
    const listed = Object.values(paths).flatMap((item) =>
      Object.values(item).flatMap((entry) => (entry.operationId ? [entry.operationId] : [])),
    );
    expect(listed.sort()).toEqual(restOperations.map((operation) => operation.id).sort());
    const price = paths['/erc20/{address}/price']!.get!;
    expect(price.parameters!.map((parameter) => parameter.name)).toContain('to_block');
  });

  it('is served by the emulator at /openapi.json', async () => {
    const response = await fetch(`${new URL(t.emu.control).origin}/openapi.json`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual(committed);
  });

  it('documents only routes the emulator serves', async () => {
    for (const operation of restOperations) {
      const input = z.parse(operation.input, operation.examples[0].input) as Record<string, unknown>;
      const { path, query, body } = buildRequest(operation, input);
      const response = await fetch(`${t.emu.urls[operation.api]}${path}${encodeQuery(query)}`, {
        method: operation.method,
        headers: { 'x-api-key': t.emu.apiKey, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const answer = (await response.json()) as { message?: string };
      // A handler may answer 404 for an id it does not hold, but never "no such route".
      expect(response.status, `${operation.id}: ${answer.message}`).not.toBe(405);
      expect(answer.message ?? '', operation.id).not.toMatch(/^Not found: (GET|POST|PUT|DELETE) /);
    }
  });
});
