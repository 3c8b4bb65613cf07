import { defineEndpoint } from '@blockwire/core/operations';
import * as z from 'zod/v4';
import { EXAMPLE_STREAM_ID, exampleStream } from '../examples.js';
import { bitcoinStreamIdSchema, bitcoinStreamSchema } from '../schemas.js';

export const getBitcoinStreamInput = z.strictObject({ id: bitcoinStreamIdSchema });
export type GetBitcoinStreamInput = z.input<typeof getBitcoinStreamInput>;

export const getBitcoinStreamEndpoint = defineEndpoint({
  id: 'getBitcoinStream',
  resource: 'bitcoinStream',
  action: 'get',
  displayName: 'Get Bitcoin Stream',
  summary: 'Get one Bitcoin stream by id',
  examples: [
    {
      input: { id: EXAMPLE_STREAM_ID },
      response: exampleStream,
    },
  ],
  api: 'streams',
  method: 'GET',
  path: '/streams/bitcoin/{id}',
  input: getBitcoinStreamInput,
  fields: { id: 'path' },
  response: bitcoinStreamSchema,
  idempotent: true,
});

/** Gets one Bitcoin stream by id. */
export const getBitcoinStream = getBitcoinStreamEndpoint.call;
