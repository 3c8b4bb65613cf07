import { type CallOptions, type Client, defineOperation, runOperation } from '@blockwire/core';
import * as z from 'zod/v4';
import { extendedPublicKeySchema } from '../bitcoin-address.js';
import {
  type BitcoinStreamXpubChange,
  bitcoinStreamIdSchema,
  bitcoinStreamXpubChangeSchema,
} from '../schemas.js';

export const addBitcoinStreamXpubInput = z.strictObject({
  id: bitcoinStreamIdSchema,
  xpub: extendedPublicKeySchema,
});
export type AddBitcoinStreamXpubInput = z.input<typeof addBitcoinStreamXpubInput>;

export const addBitcoinStreamXpubOperation = defineOperation({
  id: 'addBitcoinStreamXpub',
  resource: 'bitcoinStream',
  action: 'addXpub',
  displayName: 'Add Xpub',
  summary: 'Attach an extended public key to a Bitcoin stream; its addresses are derived and watched',
  examples: [
    {
      input: {
        id: '0da99a82-5b1f-48da-962b-d9f5f4239942',
        xpub: 'zpub6rFR7y4Q2AijBEqTUquhVz398htDFrtymD9xYYfG1m4wAcvPhXNfE3EfH1r1ADqtfSdVCToUG868RvUUkgDKf31mGDtKsAYz2oz2AGutZYs',
      },
      response: {
        id: '11878b41-5799-4688-96c2-fd6a1c2b2a01',
        streamId: '0da99a82-5b1f-48da-962b-d9f5f4239942',
        xpub: 'zpub6rFR7y4Q2AijBEqTUquhVz398htDFrtymD9xYYfG1m4wAcvPhXNfE3EfH1r1ADqtfSdVCToUG868RvUUkgDKf31mGDtKsAYz2oz2AGutZYs',
        addressType: 'p2wpkh',
        receiveAddresses: ['bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu'],
      },
    },
  ],
  api: 'streams',
  method: 'POST',
  path: '/streams/bitcoin/{id}/xpub',
  input: addBitcoinStreamXpubInput,
  fields: { id: 'path', xpub: 'body' },
  response: bitcoinStreamXpubChangeSchema,
  idempotent: false,
});

/** Attaches a mainnet xpub, ypub or zpub (checked before sending) to a Bitcoin stream. */
export function addBitcoinStreamXpub(
  client: Client,
  input: AddBitcoinStreamXpubInput,
  options?: CallOptions,
): Promise<BitcoinStreamXpubChange> {
  return runOperation(client, addBitcoinStreamXpubOperation, input, options);
}
