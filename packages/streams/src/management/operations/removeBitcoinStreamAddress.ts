import { defineEndpoint } from '@blockwire/core/operations';
import * as z from 'zod/v4';
import { EXAMPLE_ADDRESS, EXAMPLE_STREAM_ID } from '../examples.js';
import { bitcoinStreamAddressChangeSchema, bitcoinStreamIdSchema } from '../schemas.js';
import { singleBitcoinAddressSchema } from './addBitcoinStreamAddress.js';

export const removeBitcoinStreamAddressInput = z.strictObject({
  id: bitcoinStreamIdSchema,
  address: singleBitcoinAddressSchema,
});
export type RemoveBitcoinStreamAddressInput = z.input<typeof removeBitcoinStreamAddressInput>;

export const removeBitcoinStreamAddressEndpoint = defineEndpoint({
  id: 'removeBitcoinStreamAddress',
  resource: 'bitcoinStream',
  action: 'removeAddress',
  displayName: 'Remove Address',
  summary: 'Stop a Bitcoin stream watching an address',
  examples: [
    {
      input: {
        id: EXAMPLE_STREAM_ID,
        address: EXAMPLE_ADDRESS,
      },
      response: {
        streamId: EXAMPLE_STREAM_ID,
        address: EXAMPLE_ADDRESS,
        amountOfAddresses: 0,
      },
    },
  ],
  api: 'streams',
  method: 'DELETE',
  path: '/streams/bitcoin/{id}/address',
  input: removeBitcoinStreamAddressInput,
  // The address travels in the body of the DELETE, as `{ address }`.
  fields: { id: 'path', address: 'body' },
  response: bitcoinStreamAddressChangeSchema,
  idempotent: false,
});

/** Removes one address from a Bitcoin stream. */
export const removeBitcoinStreamAddress = removeBitcoinStreamAddressEndpoint.call;
