import { DEFAULT_BASE_URLS } from '@blockwire/core/operations';
import type {
  IAuthenticateGeneric,
  ICredentialTestRequest,
  ICredentialType,
  Icon,
  INodeProperties,
} from 'n8n-workflow';
import { BASE_URL_FIELDS } from '../nodes/shared/credentials';

const baseUrlProperties: INodeProperties[] = Object.entries(BASE_URL_FIELDS).map(([api, field]) => ({
  displayName: field.label,
  name: field.name,
  type: 'string',
  default: '',
  placeholder: DEFAULT_BASE_URLS[api as keyof typeof DEFAULT_BASE_URLS],
  description: `Base URL for ${field.serves}. Leave empty for the service's own; set it for the local emulator or a regional endpoint.`,
}));

export class BlockwireApi implements ICredentialType {
  name = 'blockwireApi';

  displayName = 'Blockwire API';

  icon: Icon = { light: 'file:../icons/blockwire.svg', dark: 'file:../icons/blockwire.dark.svg' };

  documentationUrl =
    'https://github.com/blockwire/blockwire/tree/main/packages/n8n-nodes-blockwire#credentials';

  properties: INodeProperties[] = [
    {
      displayName: 'API Key',
      name: 'apiKey',
      type: 'string',
      typeOptions: { password: true },
      required: true,
      default: '',
    },
    {
      displayName: 'Webhook Secret',
      name: 'webhookSecret',
      type: 'string',
      typeOptions: { password: true },
      default: '',
      description:
        "The project's webhook secret (secretKey in the project settings): the Blockwire Trigger checks every delivery's signature with it",
    },
    ...baseUrlProperties,
  ];

  // The REST interfaces take the key in this header; the JSON-RPC node interface takes it in the
  // URL path, which the SDK writes (see nodes/shared/transport.ts).
  authenticate: IAuthenticateGeneric = {
    type: 'generic',
    properties: {
      headers: {
        'X-API-Key': '={{$credentials.apiKey}}',
      },
    },
  };

  // Lists one entity category: a cheap read that every valid key may do and an invalid one may not.
  test: ICredentialTestRequest = {
    request: {
      baseURL: `={{ ($credentials.${BASE_URL_FIELDS.evm.name} || '${DEFAULT_BASE_URLS.evm}').trim().replace(/\\/+$/, '') }}`,
      url: '/entities/categories',
      qs: { limit: 1 },
    },
  };
}
