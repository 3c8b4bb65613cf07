import {
  type Client,
  defineEndpoint,
  fieldsAt,
  type IterateOptions,
  iterateOperation,
  validateInput,
} from '@blockwire/core/operations';
import * as z from 'zod/v4';
import { exampleStream } from '../examples.js';
import { type BitcoinStream, bitcoinStreamListSchema, CURSOR_PAGING, cursorPageInput } from '../schemas.js';

export const listBitcoinStreamsInput = z.strictObject({
  ...cursorPageInput,
});
export type ListBitcoinStreamsInput = z.input<typeof listBitcoinStreamsInput>;

export const listBitcoinStreamsEndpoint = defineEndpoint({
  id: 'listBitcoinStreams',
  resource: 'bitcoinStream',
  action: 'getMany',
  displayName: 'Get Many Bitcoin Streams',
  summary: "List the project's Bitcoin streams",
  paging: CURSOR_PAGING,
  examples: [
    {
      input: { limit: 10 },
      response: {
        total: 1,
        result: [exampleStream],
      },
    },
  ],
  api: 'streams',
  method: 'GET',
  path: '/streams/bitcoin',
  input: listBitcoinStreamsInput,
  fields: fieldsAt(cursorPageInput, 'query'),
  response: bitcoinStreamListSchema,
  idempotent: true,
});

/** Lists the project's Bitcoin streams: `{ total, result }` (one page: `iterateBitcoinStreams` walks them all). */
export const listBitcoinStreams = listBitcoinStreamsEndpoint.call;

const iterateBitcoinStreamsInput = listBitcoinStreamsInput.omit({ cursor: true });
export type IterateBitcoinStreamsInput = z.input<typeof iterateBitcoinStreamsInput>;

/**
 * Every Bitcoin stream of the project, following the cursors page after page. It stops when an answer
 * has no cursor, at an empty or repeated page or cursor, and after `maxPages` pages.
 */
export function iterateBitcoinStreams(
  client: Client,
  input: IterateBitcoinStreamsInput = {},
  options?: IterateOptions,
): AsyncGenerator<BitcoinStream, void, undefined> {
  const values = validateInput(iterateBitcoinStreamsInput, input, { operation: 'iterateBitcoinStreams' });
  return iterateOperation(
    client,
    listBitcoinStreamsEndpoint.operation,
    values,
    options,
    'iterateBitcoinStreams',
  );
}
