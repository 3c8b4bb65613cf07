import { describe, expect, it } from 'vitest';
import { ConfigError, describeBackend, readConfig } from './config.js';

describe('readConfig', () => {
  it('uses the local emulator without a key', () => {
    expect(readConfig({})).toEqual({ backend: { mode: 'emulator' }, port: undefined });
    expect(readConfig({ BLOCKWIRE_API_KEY: '' }).backend).toEqual({ mode: 'emulator' });
  });

  it('uses the real service with a key, with the base URLs given', () => {
    const config = readConfig({
      BLOCKWIRE_API_KEY: 'k',
      BLOCKWIRE_EVM_URL: 'https://evm.example/api/v2.2',
      BLOCKWIRE_NODE_URL: 'http://127.0.0.1:9000/node',
      PORT: '8080',
    });
    expect(config).toEqual({
      port: 8080,
      backend: {
        mode: 'service',
        apiKey: 'k',
        baseUrls: { evm: 'https://evm.example/api/v2.2', node: 'http://127.0.0.1:9000/node' },
        webhook: undefined,
      },
    });
  });

  it('takes the webhook URL and secret together', () => {
    const config = readConfig({
      BLOCKWIRE_API_KEY: 'k',
      BLOCKWIRE_WEBHOOK_URL: 'https://tunnel.example/webhooks/bitcoin',
      BLOCKWIRE_WEBHOOK_SECRET: 's',
    });
    expect(config.backend).toMatchObject({
      webhook: { url: 'https://tunnel.example/webhooks/bitcoin', secret: 's' },
    });
    expect(() =>
      readConfig({ BLOCKWIRE_API_KEY: 'k', BLOCKWIRE_WEBHOOK_URL: 'https://tunnel.example/' }),
    ).toThrow('BLOCKWIRE_WEBHOOK_URL and BLOCKWIRE_WEBHOOK_SECRET go together');
  });

  it.each([
    [{ BLOCKWIRE_EVM_URL: 'https://evm.example' }, 'BLOCKWIRE_EVM_URL is set but BLOCKWIRE_API_KEY is not'],
    [{ BLOCKWIRE_API_KEY: 'k', BLOCKWIRE_EVM_URL: 'evm.example' }, 'BLOCKWIRE_EVM_URL is not a URL'],
    [
      { BLOCKWIRE_API_KEY: 'k', BLOCKWIRE_SOLANA_URL: 'ftp://x.example' },
      'must start with http:// or https://',
    ],
    [
      { BLOCKWIRE_API_KEY: 'k', BLOCKWIRE_STREAMS_URL: 'https://u:p@x.example' },
      'must not carry a user name',
    ],
    [{ PORT: '70000' }, 'PORT must be a number from 0 to 65535'],
    [{ PORT: '80a' }, 'PORT must be a number from 0 to 65535'],
  ])('refuses %j with a sentence', (env, message) => {
    expect(() => readConfig(env)).toThrow(ConfigError);
    expect(() => readConfig(env)).toThrow(message);
  });

  it('never puts the key into what it says about the backend', () => {
    const { backend } = readConfig({
      BLOCKWIRE_API_KEY: 'secret-key',
      BLOCKWIRE_EVM_URL: 'https://evm.example',
    });
    const description = describeBackend(backend);
    expect(description).toEqual({
      label: 'Blockwire service',
      detail: 'with your BLOCKWIRE_API_KEY (evm https://evm.example)',
    });
    expect(JSON.stringify(description)).not.toContain('secret-key');
  });
});
