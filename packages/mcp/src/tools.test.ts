import { expect, it } from 'vitest';
import { buildTools } from './tools.js';

// Every tool's description, input and output schema as a client sees them: a change to any is a
// change to what every agent reads (and to the size of tools/list), made on purpose and reviewed.
it('describes every tool as before', async () => {
  const json = JSON.stringify(
    buildTools(),
    (_key, value) => (typeof value === 'function' ? undefined : isSchema(value) ? '<schema>' : value),
    1,
  );
  await expect(json).toMatchFileSnapshot('./__snapshots__/tools.json');
});

/** A zod schema object itself: its JSON form is zod's internals, not what a client sees. */
function isSchema(value: unknown): boolean {
  return typeof value === 'object' && value !== null && '_zod' in value;
}

// tools/list goes into the model's context on every session. 0.1.0 sent 42,819 bytes for 30 tools
// (1,427 a tool); output schemas for every tool, a "Returns" sentence and the `detail` input made
// it 49,238 (1,641 a tool). A new tool is welcome; a bloated one is not: these ceilings hold both.
const AVERAGE_CEILING = 1_750;
const TOOL_CEILING = 3_500;

it(`keeps tools/list at most ${AVERAGE_CEILING} bytes a tool, and no tool over ${TOOL_CEILING}`, () => {
  const definitions = buildTools().map((tool) => tool.definition);
  const total = Buffer.byteLength(JSON.stringify({ tools: definitions }));
  expect(total).toBeLessThanOrEqual(AVERAGE_CEILING * definitions.length);
  for (const definition of definitions) {
    expect(Buffer.byteLength(JSON.stringify(definition)), definition.name).toBeLessThanOrEqual(TOOL_CEILING);
  }
});

it('tells a model what each tool returns, and the limits of its lists', () => {
  for (const { definition, limits } of buildTools()) {
    expect(definition.description).toMatch(/\nReturns structuredContent\.result: /);
    for (const [name, limit] of limits) {
      if (limit.maxItems !== undefined)
        expect(definition.description).toContain(`\`${name}\` at most ${limit.maxItems}`);
    }
  }
  const price = buildTools().find((tool) => tool.definition.name === 'getEvmTokenPrice')!;
  const chain = (price.definition.inputSchema.properties as Record<string, { description: string }>).chain!;
  expect(chain.description).toMatch(/Names: eth, sepolia, polygon, /);
});
