import {
  type CallOptions,
  type Client,
  defineOperation,
  nonEmptyString,
  runOperation,
} from '@blockwire/core';
import * as z from 'zod/v4';
import {
  type BitcoinStreamXpubChange,
  bitcoinStreamIdSchema,
  bitcoinStreamXpubChangeSchema,
} from '../schemas.js';

export const removeBitcoinStreamXpubInput = z.strictObject({
  id: bitcoinStreamIdSchema,
  // Its format is not shown in the spec.
  xpubId: nonEmptyString.meta({
    title: 'Xpub ID',
    description: 'The id Get Xpubs reports for the xpub (not the xpub itself).',
    examples: ['11878b41-5799-4688-96c2-fd6a1c2b2a01'],
  }),
});
export type RemoveBitcoinStreamXpubInput = z.input<typeof removeBitcoinStreamXpubInput>;

export const removeBitcoinStreamXpubOperation = defineOperation({
  id: 'removeBitcoinStreamXpub',
  resource: 'bitcoinStream',
  action: 'removeXpub',
  displayName: 'Remove Xpub',
  summary: 'Detach an extended public key from a Bitcoin stream',
  examples: [
    {
      input: { id: '0da99a82-5b1f-48da-962b-d9f5f4239942', xpubId: '11878b41-5799-4688-96c2-fd6a1c2b2a01' },
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
  method: 'DELETE',
  path: '/streams/bitcoin/{id}/xpub/{xpubId}',
  input: removeBitcoinStreamXpubInput,
  fields: { id: 'path', xpubId: 'path' },
  response: bitcoinStreamXpubChangeSchema,
  idempotent: false,
});

/** Detaches an xpub from a Bitcoin stream, by the `id` listBitcoinStreamXpubs reports for it. */
export function removeBitcoinStreamXpub(
  client: Client,
  input: RemoveBitcoinStreamXpubInput,
  options?: CallOptions,
): Promise<BitcoinStreamXpubChange> {
  return runOperation(client, removeBitcoinStreamXpubOperation, input, options);
}
