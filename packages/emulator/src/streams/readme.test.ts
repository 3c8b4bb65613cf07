/** The README's "Streams, Bitcoin and webhooks" section checked against the code it describes. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BitcoinSimulator } from '../bitcoin/simulator.js';
import { DEFAULT_RETRY_DELAYS_MS } from '../delivery/engine.js';
import { DEFAULT_SECRET_KEY, SEEDED_EVM_STREAM_IDS } from './state.js';

const readme = readFileSync(join(import.meta.dirname, '..', '..', 'README.md'), 'utf8');
const start = readme.indexOf('## Streams, Bitcoin and webhooks');
const section = readme.slice(start, readme.indexOf('\n## ', start + 10));

describe('README: Streams, Bitcoin and webhooks', () => {
  it('exists', () => {
    expect(start).toBeGreaterThan(-1);
  });

  it('states the seed-1 chain the simulator starts with', () => {
    const simulator = new BitcoinSimulator({ seed: 1 });
    expect(section).toContain(`seed 1: ${simulator.firstHeight} to ${simulator.height}`);
  });

  it('states the default retry schedule and attempt count', () => {
    const seconds = DEFAULT_RETRY_DELAYS_MS.map((ms) => `${ms / 1000} s`);
    expect(section).toContain(`${seconds.slice(0, -1).join(', ')} and ${seconds.at(-1)}`);
    expect(section).toContain(`When all ${DEFAULT_RETRY_DELAYS_MS.length + 1}`);
  });

  it('names the secret and EVM stream ids the summary above promises', () => {
    expect(readme).toContain(DEFAULT_SECRET_KEY);
    for (const id of SEEDED_EVM_STREAM_IDS) expect(readme).toContain(id);
  });
});
