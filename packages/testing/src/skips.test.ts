import { describe, expect, it } from 'vitest';
import { cannotInstall, skippedTools, TOOLS } from './skips.js';

describe('BLOCKWIRE_SKIP', () => {
  it('names tools separated by commas or spaces, in any case', () => {
    expect([...skippedTools('chromium, N8N postgresql')]).toEqual(['chromium', 'n8n', 'postgresql']);
    expect(skippedTools('').size).toBe(0);
  });

  it('refuses a name it does not know, listing the ones it does', () => {
    expect(() => skippedTools('chrome')).toThrow(
      `BLOCKWIRE_SKIP names "chrome", which is not a tool the tests skip by; use any of: ${Object.keys(TOOLS).join(', ')}`,
    );
  });

  it('tells a suite that cannot install its tool how to skip it', () => {
    expect(cannotInstall('chromium', 'chromium is not installed and this is not root')).toBe(
      `This suite needs ${TOOLS.chromium}, and chromium is not installed and this is not root. Install it, or skip the suites that need it: BLOCKWIRE_SKIP=chromium npm test`,
    );
  });
});
