import { type CallOptions, type Client, defineOperation, runOperation } from '@blockwire/core';
import { z } from 'zod/v4';
import { type Entity, entitySchema, pathSegmentId } from '../schemas.js';

export const getEntityInput = z.strictObject({
  /** The entity's id, e.g. `binance`. */
  entityId: pathSegmentId,
});
export type GetEntityInput = z.input<typeof getEntityInput>;

export const getEntityOperation = defineOperation({
  id: 'getEntity',
  summary: 'Get an entity and its labelled addresses by id',
  api: 'evm',
  method: 'GET',
  path: '/entities/{entityId}',
  input: getEntityInput,
  fields: { entityId: 'path' },
  response: entitySchema,
  idempotent: true,
});

/** One entity (an organization, protocol or exchange) with the addresses labelled as its own. */
export function getEntity(client: Client, input: GetEntityInput, options?: CallOptions): Promise<Entity> {
  return runOperation(client, getEntityOperation, input, options);
}
