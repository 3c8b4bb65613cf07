import { defineEndpoint, withMeta } from '@blockwire/core/operations';
import * as z from 'zod/v4';
import { entitySchema, pathSegmentId } from '../schemas.js';

export const getEntityInput = z.strictObject({
  entityId: withMeta(pathSegmentId, {
    title: 'Entity ID',
    description: 'The entity’s id, as search and category listings report it (e.g. binance).',
    examples: ['binance'],
  }),
});
export type GetEntityInput = z.input<typeof getEntityInput>;

export const getEntityEndpoint = defineEndpoint({
  id: 'getEntity',
  resource: 'entity',
  action: 'get',
  displayName: 'Get Entity',
  summary: 'Get an entity (an exchange, protocol or organization) and its labelled addresses by id',
  examples: [
    {
      input: { entityId: 'binance' },
      response: {
        name: 'Binance',
        id: 'binance',
        bio: 'Binance is the largest centralized exchange by spot volume.',
        website: 'https://www.binance.com',
        type: 'exchange',
        addresses: [
          {
            address: '0x28c6c06298d514db089934071355e5743bf21d60',
            chain: 'eth',
            is_multi_chain: true,
            primary_label: 'Binance 14',
            additional_labels: [['exchanges'], ['exchange']],
          },
        ],
      },
    },
  ],
  api: 'evm',
  method: 'GET',
  path: '/entities/{entityId}',
  input: getEntityInput,
  fields: { entityId: 'path' },
  response: entitySchema,
  idempotent: true,
});

/** One entity (an organization, protocol or exchange) with the addresses labelled as its own. */
export const getEntity = getEntityEndpoint.call;
