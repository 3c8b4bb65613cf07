import {
  type CallOptions,
  type Client,
  defineOperation,
  type IterateOptions,
  iterateOperation,
  runOperation,
  validateInput,
} from '@blockwire/core/operations';
import * as z from 'zod/v4';
import { exampleStream } from '../examples.js';
import {
  type BitcoinStream,
  type BitcoinStreamList,
  bitcoinStreamListSchema,
  cursorSchema,
  pageLimitSchema,
} from '../schemas.js';

export const listBitcoinStreamsInput = z.strictObject({
  limit: pageLimitSchema.optional(),
  cursor: cursorSchema.optional(),
});
export type ListBitcoinStreamsInput = z.input<typeof listBitcoinStreamsInput>;

export const listBitcoinStreamsOperation = defineOperation({
  id: 'listBitcoinStreams',
  resource: 'bitcoinStream',
  action: 'getMany',
  displayName: 'Get Many Bitcoin Streams',
  summary: "List the project's Bitcoin streams",
  paging: {
    style: 'cursor',
    cursorField: 'cursor',
    limitField: 'limit',
    nextCursor: 'cursor',
    items: 'result',
  },
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
  fields: { limit: 'query', cursor: 'query' },
  response: bitcoinStreamListSchema,
  idempotent: true,
});

/** Lists the project's Bitcoin streams: `{ total, result }` (one page: `iterateBitcoinStreams` walks them all). */
export function listBitcoinStreams(
  client: Client,
  input: ListBitcoinStreamsInput = {},
  options?: CallOptions,
): Promise<BitcoinStreamList> {
  return runOperation(client, listBitcoinStreamsOperation, input, options);
}

const iterateBitcoinStreamsInput = listBitcoinStreamsInput.omit({ cursor: true });
export type IterateBitcoinStreamsInput = z.input<typeof iterateBitcoinStreamsInput>;

/**
 * Every Bitcoin stream of the project, page after page, following the cursors the service returns and fetching
 * a page only when the previous one is consumed (`limit` sets the page size). It stops when an
 * answer has no cursor, at an empty page, when a cursor or a page repeats (a service that ignores
 * `cursor`: nothing is yielded twice), and after `maxPages` pages. A bad input throws a
 * `ValidationError` at once, before any request.
 */
export function iterateBitcoinStreams(
  client: Client,
  input: IterateBitcoinStreamsInput = {},
  options?: IterateOptions,
): AsyncGenerator<BitcoinStream, void, undefined> {
  const caller = 'iterateBitcoinStreams';
  const values = validateInput(iterateBitcoinStreamsInput, input, { operation: caller });
  return iterateOperation<BitcoinStream>(client, listBitcoinStreamsOperation, values, options, caller);
}
