import { type CallOptions, type Client, defineOperation, runOperation } from '@blockwire/core';
import { z } from 'zod/v4';
import { projectSettingsSchema, settingsRegionSchema } from '../schemas.js';

export const updateSettingsInput = z.strictObject({
  region: settingsRegionSchema.optional(),
  secretKey: z.string({ error: 'must be a string' }).min(1, { error: 'must not be empty' }).optional(),
});
export type UpdateSettingsInput = z.input<typeof updateSettingsInput>;

export const updateSettingsOperation = defineOperation({
  id: 'updateSettings',
  summary: 'Set the project settings: the region webhooks are sent from and the webhook secret',
  api: 'streams',
  method: 'POST',
  path: '/settings',
  input: updateSettingsInput,
  fields: { region: 'body', secretKey: 'body' },
  response: projectSettingsSchema,
  idempotent: true,
});

/** Sets the webhook region and/or the secret that signs webhooks; resolves to the settings. */
export function updateSettings(client: Client, input: UpdateSettingsInput = {}, options?: CallOptions) {
  return runOperation(client, updateSettingsOperation, input, options);
}
