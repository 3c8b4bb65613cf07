import { defineEndpoint, defineIterator, fieldsAt } from '@blockwire/core/operations';
import * as z from 'zod/v4';
import { EXAMPLE_STREAM_ID, exampleXpub } from '../examples.js';
import {
  type BitcoinStreamXpub,
  bitcoinStreamIdSchema,
  bitcoinStreamXpubPageSchema,
  CURSOR_PAGING,
  cursorPageInput,
} from '../schemas.js';

export const listBitcoinStreamXpubsInput = z.strictObject({
  id: bitcoinStreamIdSchema,
  ...cursorPageInput,
});
export type ListBitcoinStreamXpubsInput = z.input<typeof listBitcoinStreamXpubsInput>;

export const listBitcoinStreamXpubsEndpoint = defineEndpoint({
  id: 'listBitcoinStreamXpubs',
  resource: 'bitcoinStream',
  action: 'getXpubs',
  displayName: 'Get Xpubs',
  summary: 'List the extended public keys attached to a Bitcoin stream',
  paging: CURSOR_PAGING,
  examples: [
    {
      input: { id: EXAMPLE_STREAM_ID },
      response: {
        total: 1,
        result: [exampleXpub],
      },
    },
  ],
  api: 'streams',
  method: 'GET',
  path: '/streams/bitcoin/{id}/xpub',
  input: listBitcoinStreamXpubsInput,
  fields: { id: 'path', ...fieldsAt(cursorPageInput, 'query') },
  response: bitcoinStreamXpubPageSchema,
  idempotent: true,
});

/** Lists the xpubs of a Bitcoin stream (one page: `iterateBitcoinStreamXpubs` walks them all); each record's `id` is what removal takes. */
export const listBitcoinStreamXpubs = listBitcoinStreamXpubsEndpoint.call;

const iterateBitcoinStreamXpubsInput = listBitcoinStreamXpubsInput.omit({ cursor: true });
export type IterateBitcoinStreamXpubsInput = z.input<typeof iterateBitcoinStreamXpubsInput>;

/**
 * Every xpub attached to a Bitcoin stream, following the cursors page after page. It stops when an answer
 * has no cursor, at an empty or repeated page or cursor, and after `maxPages` pages.
 */
export const iterateBitcoinStreamXpubs = defineIterator<
  BitcoinStreamXpub,
  typeof iterateBitcoinStreamXpubsInput
>(listBitcoinStreamXpubsEndpoint.operation, iterateBitcoinStreamXpubsInput, 'iterateBitcoinStreamXpubs');
