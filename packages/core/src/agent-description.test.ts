import { describe, expect, it } from 'vitest';
import * as z from 'zod/v4/mini';
import { describeForAgent, hasShape, outputJsonSchema, schemaOfValue, shapeOf } from './agent-description.js';

describe('what a model is told about an action', () => {
  it('says what a call returns from its schema: fields, lists of objects, null', () => {
    const price = z.object({ usdPrice: z.number(), tokenName: z.string() });
    expect(shapeOf(outputJsonSchema(price))).toBe('an object (usdPrice, tokenName)');
    expect(shapeOf(outputJsonSchema(z.array(price)))).toBe('a list of objects (usdPrice, tokenName)');
    expect(shapeOf(outputJsonSchema(z.array(z.string())))).toBe('a list of strings');
    expect(shapeOf(outputJsonSchema(z.nullable(price)))).toBe('an object (usdPrice, tokenName), or null');
  });

  it('reads an example answer when the schema transforms and says nothing of its output', () => {
    const hexToBigint = z.pipe(
      z.string(),
      z.transform((text: string) => BigInt(text)),
    );
    expect(hasShape(outputJsonSchema(hexToBigint))).toBe(false);
    expect(shapeOf(schemaOfValue({ balance: '0x10', raw: { wei: 16n } }))).toBe('an object (balance, raw)');
  });

  it('lines up summary, returns, paging, limits, fields with their names, and an example', () => {
    const text = describeForAgent({
      summary: 'Get the price of a token.',
      returnsIn: 'structuredContent.result',
      output: { type: 'object', properties: { usdPrice: { type: 'number' } } },
      paging: { style: 'cursor', cursorField: 'cursor', nextCursor: 'cursor', items: 'result' },
      limits: ['`addresses` at most 1000'],
      fields: [
        { name: 'address', description: 'The token: 0x and 40 hex digits.', required: true },
        {
          name: 'chain',
          description: 'The chain',
          required: false,
          options: [{ name: 'eth', value: 'eth' }],
        },
      ],
      example: { address: '0x1' },
    });
    expect(text.split('\n')).toEqual([
      'Get the price of a token.',
      'Returns structuredContent.result: an object (usdPrice).',
      'Paged: pass the `cursor` of an answer as `cursor` for the next page.',
      'Per call: `addresses` at most 1000.',
      '`address`: The token: 0x and 40 hex digits.',
      '`chain` (optional): The chain. Names: eth.',
      'Example input: {"address":"0x1"}',
    ]);
  });
});
