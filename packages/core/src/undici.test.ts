import * as undici from 'undici';
import { describe, expect, it } from 'vitest';
import { loadAgentClass } from './transport-undici.js';

describe('the undici Agent the transport loads by its path', () => {
  it('is the Agent undici exports (a new undici that moved the file fails here, not in use)', async () => {
    expect(await loadAgentClass()).toBe(undici.Agent);
  });
});
