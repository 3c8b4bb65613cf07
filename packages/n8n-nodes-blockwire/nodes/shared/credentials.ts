import type { Api, BaseUrls } from '@blockwire/core/operations';

/** The credential type both nodes use. */
export const CREDENTIAL_TYPE = 'blockwireApi';

/**
 * The credential field that overrides each interface's base URL (fixed names: saved credentials
 * rely on them), with its label.
 */
export const BASE_URL_FIELDS = {
  evm: { name: 'evmBaseUrl', label: 'EVM Base URL', serves: 'token prices and entities' },
  solana: { name: 'solanaBaseUrl', label: 'Solana Base URL', serves: 'Solana token prices' },
  streams: { name: 'streamsBaseUrl', label: 'Streams Base URL', serves: 'streams, settings and webhooks' },
  node: { name: 'nodeBaseUrl', label: 'Node Base URL', serves: 'JSON-RPC node access' },
} as const satisfies Record<Api, { name: string; label: string; serves: string }>;

export interface BlockwireCredentials {
  apiKey: string;
  webhookSecret?: string;
  evmBaseUrl?: string;
  solanaBaseUrl?: string;
  streamsBaseUrl?: string;
  nodeBaseUrl?: string;
}

/** The base URLs the credentials override; an empty field means the service's own. */
export function baseUrlsOf(credentials: BlockwireCredentials): Partial<BaseUrls> {
  const urls: Partial<BaseUrls> = {};
  for (const [api, field] of Object.entries(BASE_URL_FIELDS) as [Api, (typeof BASE_URL_FIELDS)[Api]][]) {
    const value = credentials[field.name];
    if (typeof value === 'string' && value.trim() !== '') urls[api] = value.trim();
  }
  return urls;
}

/** The credential field a client option path (`apiKey`, `baseUrls.evm`) stands for, as a label. */
export function credentialLabelOf(optionPath: string): string | undefined {
  if (optionPath === 'apiKey') return 'API Key';
  const api = /^baseUrls\.(\w+)$/.exec(optionPath)?.[1];
  return api && api in BASE_URL_FIELDS ? BASE_URL_FIELDS[api as Api].label : undefined;
}
