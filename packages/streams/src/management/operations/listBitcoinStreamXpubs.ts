import { type CallOptions, type Client, defineOperation, runOperation } from '@blockwire/core';
import * as z from 'zod/v4';
import {
  type BitcoinStreamXpubPage,
  bitcoinStreamIdSchema,
  bitcoinStreamXpubPageSchema,
  cursorSchema,
  pageLimitSchema,
} from '../schemas.js';

export const listBitcoinStreamXpubsInput = z.strictObject({
  id: bitcoinStreamIdSchema,
  limit: pageLimitSchema.optional(),
  cursor: cursorSchema.optional(),
});
export type ListBitcoinStreamXpubsInput = z.input<typeof listBitcoinStreamXpubsInput>;

export const listBitcoinStreamXpubsOperation = defineOperation({
  id: 'listBitcoinStreamXpubs',
  resource: 'bitcoinStream',
  action: 'getXpubs',
  displayName: 'Get Xpubs',
  summary: 'List the extended public keys attached to a Bitcoin stream',
  paging: {
    style: 'cursor',
    cursorField: 'cursor',
    limitField: 'limit',
    nextCursor: 'cursor',
    items: 'result',
  },
  examples: [
    {
      input: { id: '0da99a82-5b1f-48da-962b-d9f5f4239942' },
      response: {
        total: 1,
        result: [
          {
            id: '11878b41-5799-4688-96c2-fd6a1c2b2a01',
            streamId: '0da99a82-5b1f-48da-962b-d9f5f4239942',
            xpub: 'zpub6rFR7y4Q2AijBEqTUquhVz398htDFrtymD9xYYfG1m4wAcvPhXNfE3EfH1r1ADqtfSdVCToUG868RvUUkgDKf31mGDtKsAYz2oz2AGutZYs',
            addressType: 'p2wpkh',
            receiveAddresses: ['bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu'],
          },
        ],
      },
    },
  ],
  api: 'streams',
  method: 'GET',
  path: '/streams/bitcoin/{id}/xpub',
  input: listBitcoinStreamXpubsInput,
  fields: { id: 'path', limit: 'query', cursor: 'query' },
  response: bitcoinStreamXpubPageSchema,
  idempotent: true,
});

/** Lists the xpubs of a Bitcoin stream (one page); each record's `id` is what removal takes. */
export function listBitcoinStreamXpubs(
  client: Client,
  input: ListBitcoinStreamXpubsInput,
  options?: CallOptions,
): Promise<BitcoinStreamXpubPage> {
  return runOperation(client, listBitcoinStreamXpubsOperation, input, options);
}
