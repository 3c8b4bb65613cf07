import { defineEndpoint, defineIterator, fieldsAt } from '@blockwire/core/operations';
import * as z from 'zod/v4';
import { EXAMPLE_ADDRESS, EXAMPLE_STREAM_ID } from '../examples.js';
import {
  type BitcoinStreamAddress,
  bitcoinStreamAddressPageSchema,
  bitcoinStreamIdSchema,
  CURSOR_PAGING,
  cursorPageInput,
} from '../schemas.js';

export const listBitcoinStreamAddressesInput = z.strictObject({
  id: bitcoinStreamIdSchema,
  ...cursorPageInput,
});
export type ListBitcoinStreamAddressesInput = z.input<typeof listBitcoinStreamAddressesInput>;

export const listBitcoinStreamAddressesEndpoint = defineEndpoint({
  id: 'listBitcoinStreamAddresses',
  resource: 'bitcoinStream',
  action: 'getAddresses',
  displayName: 'Get Addresses',
  summary: 'List the addresses a Bitcoin stream watches',
  paging: CURSOR_PAGING,
  examples: [
    {
      input: { id: EXAMPLE_STREAM_ID, limit: 2 },
      response: {
        total: 1,
        result: [{ address: EXAMPLE_ADDRESS, createdAt: '2026-11-23T09:15:32.784Z' }],
      },
    },
  ],
  api: 'streams',
  method: 'GET',
  path: '/streams/bitcoin/{id}/address',
  input: listBitcoinStreamAddressesInput,
  fields: { id: 'path', ...fieldsAt(cursorPageInput, 'query') },
  response: bitcoinStreamAddressPageSchema,
  idempotent: true,
});

/** Lists the addresses a Bitcoin stream watches (one page; pass `cursor` for the next, or walk them all with `iterateBitcoinStreamAddresses`). */
export const listBitcoinStreamAddresses = listBitcoinStreamAddressesEndpoint.call;

const iterateBitcoinStreamAddressesInput = listBitcoinStreamAddressesInput.omit({ cursor: true });
export type IterateBitcoinStreamAddressesInput = z.input<typeof iterateBitcoinStreamAddressesInput>;

/**
 * Every address a Bitcoin stream watches, following the cursors page after page. It stops when an answer
 * has no cursor, at an empty or repeated page or cursor, and after `maxPages` pages.
 */
export const iterateBitcoinStreamAddresses = defineIterator<
  BitcoinStreamAddress,
  typeof iterateBitcoinStreamAddressesInput
>(
  listBitcoinStreamAddressesEndpoint.operation,
  iterateBitcoinStreamAddressesInput,
  'iterateBitcoinStreamAddresses',
);
