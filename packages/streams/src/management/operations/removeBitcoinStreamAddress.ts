import { type CallOptions, type Client, defineOperation, runOperation } from '@blockwire/core';
import * as z from 'zod/v4';
import {
  type BitcoinStreamAddressChange,
  bitcoinStreamAddressChangeSchema,
  bitcoinStreamIdSchema,
} from '../schemas.js';
import { singleBitcoinAddressSchema } from './addBitcoinStreamAddress.js';

export const removeBitcoinStreamAddressInput = z.strictObject({
  id: bitcoinStreamIdSchema,
  address: singleBitcoinAddressSchema,
});
export type RemoveBitcoinStreamAddressInput = z.input<typeof removeBitcoinStreamAddressInput>;

export const removeBitcoinStreamAddressOperation = defineOperation({
  id: 'removeBitcoinStreamAddress',
  resource: 'bitcoinStream',
  action: 'removeAddress',
  displayName: 'Remove Address',
  summary: 'Stop a Bitcoin stream watching an address',
  examples: [
    {
      input: {
        id: '0da99a82-5b1f-48da-962b-d9f5f4239942',
        address: 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu',
      },
      response: {
        streamId: '0da99a82-5b1f-48da-962b-d9f5f4239942',
        address: 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu',
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
export function removeBitcoinStreamAddress(
  client: Client,
  input: RemoveBitcoinStreamAddressInput,
  options?: CallOptions,
): Promise<BitcoinStreamAddressChange> {
  return runOperation(client, removeBitcoinStreamAddressOperation, input, options);
}
