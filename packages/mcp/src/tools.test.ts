import { expect, it } from 'vitest';
import { buildTools } from './tools.js';

// The file was written by the release before core's schemas moved to zod mini: the JSON Schema of
// every tool's input and output, and each tool's description, stay exactly what they were.
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
