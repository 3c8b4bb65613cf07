import { defineEndpoint, fieldsAt } from '@blockwire/core/operations';
import * as z from 'zod/v4';
import { exampleStream } from '../examples.js';
import { bitcoinNetworkSchema, bitcoinStreamConfigShape, bitcoinStreamSchema } from '../schemas.js';

export const createBitcoinStreamInput = z.strictObject({
  ...bitcoinStreamConfigShape,
  network: bitcoinNetworkSchema.default(['mainnet']),
});
export type CreateBitcoinStreamInput = z.input<typeof createBitcoinStreamInput>;

export const createBitcoinStreamEndpoint = defineEndpoint({
  id: 'createBitcoinStream',
  resource: 'bitcoinStream',
  action: 'create',
  displayName: 'Create Bitcoin Stream',
  summary: 'Create a Bitcoin stream that POSTs matching transactions to a webhook',
  advanced: ['network'],
  examples: [
    {
      input: {
        webhookUrl: 'https://example.com/webhooks/bitcoin',
        description: 'Treasury watch',
        tag: 'treasury',
        includeOutputs: true,
      },
      response: { ...exampleStream, amountOfAddresses: 0 },
    },
  ],
  api: 'streams',
  method: 'PUT',
  path: '/streams/bitcoin',
  input: createBitcoinStreamInput,
  fields: fieldsAt(bitcoinStreamConfigShape, 'body'),
  response: bitcoinStreamSchema,
  // A repeated create would make a second stream: never retried once it may have arrived.
  idempotent: false,
});

/** Creates a Bitcoin stream (network `["mainnet"]`, the only one served); resolves to the new stream. */
export const createBitcoinStream = createBitcoinStreamEndpoint.call;
