import { defineEndpoint } from '@blockwire/core/operations';
import * as z from 'zod/v4';
import { projectSettingsSchema, settingsRegionSchema } from '../schemas.js';

export const updateSettingsInput = z.strictObject({
  region: settingsRegionSchema.optional(),
  secretKey: z
    .string({ error: 'must be a string' })
    .min(1, { error: 'must not be empty' })
    .meta({ description: 'The secret that signs webhook deliveries (x-signature); keep it private.' })
    .optional(),
});
export type UpdateSettingsInput = z.input<typeof updateSettingsInput>;

export const updateSettingsEndpoint = defineEndpoint({
  id: 'updateSettings',
  resource: 'settings',
  action: 'update',
  displayName: 'Update Settings',
  summary: 'Set the region webhooks are sent from and the secret that signs them',
  examples: [
    {
      input: { region: 'eu-central-1' },
      response: { region: 'eu-central-1', secretKey: 'example-webhook-secret-key' },
    },
  ],
  api: 'streams',
  method: 'POST',
  path: '/settings',
  input: updateSettingsInput,
  fields: { region: 'body', secretKey: 'body' },
  response: projectSettingsSchema,
  idempotent: true,
});

/** Sets the webhook region and/or the secret that signs webhooks; resolves to the settings. */
export const updateSettings = updateSettingsEndpoint.call;
