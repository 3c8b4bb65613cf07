/**
 * `createHash('sha256')` of node:crypto for the page's bundle of input checks (tsup.config.ts):
 * the SDK's Bitcoin address check hashes with it, and a browser has no node:crypto.
 */
import { sha256 } from '@noble/hashes/sha2.js';

export function createHash(algorithm: string) {
  if (algorithm !== 'sha256') throw new Error(`only sha256 is bundled for the page, not ${algorithm}`);
  const hash = sha256.create();
  return {
    update(bytes: Uint8Array) {
      hash.update(bytes);
      return this;
    },
    digest: () => hash.digest(),
  };
}
