/** The demo's README states the limits the server enforces, from the constants that enforce them. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MAX_REQUEST_BYTES } from './http.js';
import { grouped, MAX_SOLANA_ADDRESSES, MAX_SOLANA_TEXT } from './routes/prices.js';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8').replace(/\s+/g, ' ');

describe('apps/demo/README.md', () => {
  it('says how many Solana addresses, characters and bytes one lookup takes', () => {
    expect(readme).toContain(`paste up to ${grouped(MAX_SOLANA_ADDRESSES)} addresses`);
    expect(readme).toContain(`at most ${grouped(MAX_SOLANA_TEXT)} characters`);
    expect(readme).toContain(`${MAX_REQUEST_BYTES / 1024} KiB per request`);
  });
});
