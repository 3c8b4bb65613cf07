import { HDKey } from '@scure/bip32';
import { describe, expect, it } from 'vitest';
import { parseXpub } from './xpub.js';

// BIP84 test mnemonic "abandon ×11 about", account m/84'/0'/0' (vector from RECIPES.md).
const ZPUB =
  'zpub6rFR7y4Q2AijBEqTUquhVz398htDFrtymD9xYYfG1m4wAcvPhXNfE3EfH1r1ADqtfSdVCToUG868RvUUkgDKf31mGDtKsAYz2oz2AGutZYs';

/** The same key under other SLIP-132 prefixes: the version bytes alone change. */
function reprefix(zpub: string, version: number): string {
  const key = HDKey.fromExtendedKey(zpub, { private: 0x04b2430c, public: 0x04b24746 });
  return new HDKey({
    versions: { private: 0, public: version },
    publicKey: key.publicKey!,
    chainCode: key.chainCode!,
    depth: key.depth,
    index: key.index,
    parentFingerprint: key.parentFingerprint,
  }).publicExtendedKey;
}

describe('parseXpub', () => {
  it('derives the published BIP84 receive and change addresses from a zpub', () => {
    const key = parseXpub(ZPUB);
    expect(key.addressType).toBe('p2wpkh');
    expect(key.address(0, 0)).toBe('bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu');
    expect(key.address(0, 1)).toBe('bc1qnjg0jd8228aq7egyzacy8cys3knf9xvrerkf9g');
    expect(key.address(1, 0)).toBe('bc1q8c6fshw2dlwun7ekn9qwf37cu2rn755upcp6el');
  });

  it('gives legacy addresses for an xpub and P2SH-wrapped SegWit for a ypub of the same key', () => {
    const xpub = parseXpub(reprefix(ZPUB, 0x0488b21e));
    const ypub = parseXpub(reprefix(ZPUB, 0x049d7cb2));
    expect(xpub.addressType).toBe('p2pkh');
    expect(xpub.address(0, 0)).toMatch(/^1/);
    expect(ypub.addressType).toBe('p2sh-p2wpkh');
    expect(ypub.address(0, 0)).toMatch(/^3/);
  });

  it('refuses other prefixes and broken checksums with a RangeError', () => {
    expect(() => parseXpub(`tpub${ZPUB.slice(4)}`)).toThrow(RangeError);
    expect(() => parseXpub(`${ZPUB.slice(0, -1)}t`)).toThrow(/not a valid extended public key/);
  });
});
