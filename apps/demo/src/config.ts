/**
 * What the demo runs against, read from the environment: the local emulator (no key, no network)
 * unless `BLOCKWIRE_API_KEY` is set, in which case the real service.
 */
import { BASE_URL_VARIABLES, type BaseUrls } from '@blockwire/core';

/** Environment variables the demo reads, each with what it means (printed by `--help`). */
export const ENVIRONMENT = {
  BLOCKWIRE_API_KEY: 'use the real service with this key instead of the local emulator',
  ...Object.fromEntries(Object.values(BASE_URL_VARIABLES).map(({ name, meaning }) => [name, meaning])),
  BLOCKWIRE_WEBHOOK_URL:
    'public HTTPS URL that forwards to this demo’s /webhooks/bitcoin (real service only: it cannot reach 127.0.0.1)',
  BLOCKWIRE_WEBHOOK_SECRET: 'your project’s webhook secret (real service only), to check deliveries',
  PORT: 'port of the demo page (default 4680; 0 picks a free one)',
} as const;

export const DEFAULT_PORT = 4680;

export type BackendConfig =
  | { mode: 'emulator' }
  | {
      mode: 'service';
      apiKey: string;
      /** Only the interfaces whose URL was given; the others keep the SDK's defaults. */
      baseUrls: Partial<BaseUrls>;
      /** Where the service delivers the demo stream's webhooks; without it the live board is off. */
      webhook: { url: string; secret: string } | undefined;
    };

export interface DemoConfig {
  backend: BackendConfig;
  /** The port asked for; `undefined` means the default, with a free port as fallback when busy. */
  port: number | undefined;
}

/** Thrown for a bad environment: the message is a sentence to print as is. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

type Environment = Record<string, string | undefined>;

export function readConfig(env: Environment): DemoConfig {
  return { backend: readBackend(env), port: readPort(env.PORT) };
}

function readBackend(env: Environment): BackendConfig {
  const apiKey = env.BLOCKWIRE_API_KEY;
  if (apiKey === undefined || apiKey === '') {
    const stray = Object.values(BASE_URL_VARIABLES)
      .map(({ name }) => name)
      .filter((name) => env[name]);
    if (stray.length > 0) {
      throw new ConfigError(
        `${stray.join(', ')} ${stray.length === 1 ? 'is' : 'are'} set but BLOCKWIRE_API_KEY is not: set the key to use the real service, or unset ${stray.length === 1 ? 'it' : 'them'} to use the local emulator.`,
      );
    }
    return { mode: 'emulator' };
  }
  const baseUrls: Partial<BaseUrls> = {};
  for (const [api, { name }] of Object.entries(BASE_URL_VARIABLES) as [keyof BaseUrls, { name: string }][]) {
    const value = env[name];
    if (value) baseUrls[api] = httpUrl(name, value);
  }
  const webhookUrl = env.BLOCKWIRE_WEBHOOK_URL;
  const secret = env.BLOCKWIRE_WEBHOOK_SECRET;
  if (Boolean(webhookUrl) !== Boolean(secret)) {
    throw new ConfigError(
      'BLOCKWIRE_WEBHOOK_URL and BLOCKWIRE_WEBHOOK_SECRET go together: the service delivers to the URL and signs with the secret.',
    );
  }
  const webhook =
    webhookUrl && secret ? { url: httpUrl('BLOCKWIRE_WEBHOOK_URL', webhookUrl), secret } : undefined;
  return { mode: 'service', apiKey, baseUrls, webhook };
}

function httpUrl(name: string, value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(`${name} is not a URL: give a full http:// or https:// address.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(`${name} must start with http:// or https://.`);
  }
  if (url.username || url.password) {
    throw new ConfigError(`${name} must not carry a user name or password.`);
  }
  return value;
}

function readPort(value: string | undefined): number | undefined {
  if (value === undefined || value === '') return undefined;
  if (!/^\d{1,5}$/.test(value) || Number(value) > 65_535) {
    throw new ConfigError(
      `PORT must be a number from 0 to 65535 (0 picks a free port), not ${JSON.stringify(value)}.`,
    );
  }
  return Number(value);
}

/** What the demo talks to, in words (never the key): `{ label: 'Local emulator', detail: 'no API key, no network' }`. */
export function describeBackend(backend: BackendConfig): { label: string; detail: string } {
  if (backend.mode === 'emulator') return { label: 'Local emulator', detail: 'no API key, no network' };
  const custom = Object.entries(backend.baseUrls).map(([api, url]) => `${api} ${url}`);
  return {
    label: 'Blockwire service',
    detail: `with your BLOCKWIRE_API_KEY${custom.length ? ` (${custom.join(', ')})` : ''}`,
  };
}
