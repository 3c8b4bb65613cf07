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
