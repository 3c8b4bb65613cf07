import { type CallOptions, type Client, defineOperation, runOperation } from '@blockwire/core/operations';
import * as z from 'zod/v4';
import { bitcoinAddressSchema } from '../bitcoin-address.js';
import { EXAMPLE_ADDRESS, EXAMPLE_STREAM_ID } from '../examples.js';
import {
  type BitcoinStreamAddressChange,
  bitcoinStreamAddressChangeSchema,
  bitcoinStreamIdSchema,
} from '../schemas.js';

/** One address: the service takes one per request, so a list is refused with a pointer to the helper. */
export const singleBitcoinAddressSchema = z
  .custom<string>((value) => !Array.isArray(value), {
    error: 'takes one address per request (the service limit); use addBitcoinStreamAddresses to add a list',
  })
  .pipe(bitcoinAddressSchema)
  .meta({ description: 'One Bitcoin mainnet address (the service takes one a request).', type: 'string' });

export const addBitcoinStreamAddressInput = z.strictObject({
  id: bitcoinStreamIdSchema,
  address: singleBitcoinAddressSchema,
});
export type AddBitcoinStreamAddressInput = z.input<typeof addBitcoinStreamAddressInput>;

export const addBitcoinStreamAddressOperation = defineOperation({
  id: 'addBitcoinStreamAddress',
  resource: 'bitcoinStream',
  action: 'addAddress',
  displayName: 'Add Addresses',
  summary: 'Add addresses to a Bitcoin stream (the service takes one a request)',
  examples: [
    {
      input: {
        id: EXAMPLE_STREAM_ID,
        address: EXAMPLE_ADDRESS,
      },
      response: {
        streamId: EXAMPLE_STREAM_ID,
        address: EXAMPLE_ADDRESS,
        amountOfAddresses: 1,
      },
    },
  ],
  api: 'streams',
  method: 'POST',
  path: '/streams/bitcoin/{id}/address',
  input: addBitcoinStreamAddressInput,
  fields: { id: 'path', address: 'body' },
  response: bitcoinStreamAddressChangeSchema,
  idempotent: false,
});

/** Adds one Bitcoin mainnet address to a stream (checked before sending). */
export function addBitcoinStreamAddress(
  client: Client,
  input: AddBitcoinStreamAddressInput,
  options?: CallOptions,
): Promise<BitcoinStreamAddressChange> {
  return runOperation(client, addBitcoinStreamAddressOperation, input, options);
}
