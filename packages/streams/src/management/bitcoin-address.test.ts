import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  bitcoinAddressSchema,
  bitcoinAddressType,
  extendedPublicKeyKind,
  extendedPublicKeySchema,
  isBitcoinAddress,
  isExtendedPublicKey,
} from './bitcoin-address.js';

// BIP84 "abandon ×11 about" account 0 (see RECIPES.md), plus the same key in xpub/ypub form and
// addresses of other kinds derived from its first receive key with @scure/btc-signer.
const ZPUB =
  'zpub6rFR7y4Q2AijBEqTUquhVz398htDFrtymD9xYYfG1m4wAcvPhXNfE3EfH1r1ADqtfSdVCToUG868RvUUkgDKf31mGDtKsAYz2oz2AGutZYs';
const XPUB =
  'xpub6CatWdiZiodmUeTDp8LT5or8nmbKNcuyvz7WyksVFkKB4RHwCD3XyuvPEbvqAQY3rAPshWcMLoP2fMFMKHPJ4ZeZXYVUhLv1VMrjPC7PW6V';
const YPUB =
  'ypub6XR9pJPUsVBFKweLeV85HtwdxjjmKEuUr6djm9mNdkh47X7ASsD6byaXFotRAKByFoWgSzCuoTjaYdrv2yoJroLAPtBuHFjVm5vNmhyNehE';
const TPUB =
  'tpubDCxX2sYFS5bDkSe5GKKYHjBW7tgyN1R3UchpLJvdbf54ohxeGRtd8MbDUe1cguVHe4vnK68DsuD5MXjxi9EXx16rb9EnNsaF5KT99CinaJz';
// A master private key (seed of 32 bytes 0x07), which must never be sent.
const XPRV =
  'xprv9s21ZrQH143K3nkpihgerFwGQwE1rHGuyh5vX6oghbAsrKnX6HTCmkzuoQHSkH6XvPMJgYz6eaS6LFjWaSjtwZJ11wAmYQPmw8R2Md7D9Ui';

const valid: [string, string][] = [
  ['1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa', 'p2pkh'],
  ['1JaUQDVNRdhfNsVncGkXedaPSM5Gc54Hso', 'p2pkh'],
  ['3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy', 'p2sh'],
  ['3GtVZYzsKF6Feikdjd4bDyPdAiyeHANY9b', 'p2sh'],
  ['bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq', 'p2wpkh'],
  ['bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu', 'p2wpkh'],
  ['bc1qnjg0jd8228aq7egyzacy8cys3knf9xvrerkf9g', 'p2wpkh'],
  ['bc1q8c6fshw2dlwun7ekn9qwf37cu2rn755upcp6el', 'p2wpkh'],
  ['BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4', 'p2wpkh'],
  ['bc1q9gd5ertzdg7f8astl7r3mt7eynsgyusxz5z3d0xj5ekgf63shl8svcgnjy', 'p2wsh'],
  ['bc1p8knh0enfv47gmpuf66528zd4jtkgjq4sv5w5l2gqwgk8exu2ynns9g8c9m', 'p2tr'],
  ['bc1p5d7rjq7g6rdk2yhzks9smlaqtedr4dekq08ge8ztwac72sfr9rusxg3297', 'p2tr'],
  // BIP 350 vectors for future witness versions.
  ['bc1pw508d6qejxtdg4y5r3zarvary0c5xw7kw508d6qejxtdg4y5r3zarvary0c5xw7kt5nd6y', 'witness-unknown'],
  ['BC1SW50QGDZ25J', 'witness-unknown'],
  ['bc1zw508d6qejxtdg4y5r3zarvaryvaxxpcs', 'witness-unknown'],
];

const invalid: [string, RegExp][] = [
  ['1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNb', /checksum/],
  ['3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLz', /checksum/],
  ['1A1zP1eP5QGefi2DMPTfTL5SLmv7Divf0a', /base58/],
  ['bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdr', /checksum/],
  ['bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyv', /checksum/],
  ['bc1p8knh0enfv47gmpuf66528zd4jtkgjq4sv5w5l2gqwgk8exu2ynns9g8c9n', /checksum/],
  // A taproot program with the old bech32 checksum, and version 0 with bech32m (BIP 350).
  ['bc1p8knh0enfv47gmpuf66528zd4jtkgjq4sv5w5l2gqwgk8exu2ynnss5h5qe', /bech32m/],
  ['bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kemeawh', /bech32 checksum/],
  ['BC1S0XLXVLHEMJA6C4DQV22UAPCTQUPFHLXM9H8Z3K2E72Q4K9HCZ7VQ54WELL', /bech32m/],
  ['bc1gmk9yu', /bech32/],
  // Version 0 with a 21-byte program.
  ['bc1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqj9pecr', /20 or 32 bytes/],
  ['Bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq', /bech32/],
  ['tb1qcr8te4kr609gcawutmrza0j4xv80jy8zmfp6l0', /testnet/],
  ['my6RhGaMEf8v9yyQKqiuUYniJLfyU4gzqe', /testnet/],
  ['ltc1qg82tscu2xyq6gm8twzuf4q6hh9ykmjjlx5n6t8', /base58/],
  ['0x52908400098527886E0F7030069857D2E4169EE7', /base58/],
  [' 1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa', /spaces/],
  ['', /spaces/],
  // A valid base58check payload of the wrong length (an xpub is not an address).
  [XPUB, /length/],
];

describe('Bitcoin addresses', () => {
  it.each(valid)('accepts %s as %s', (address, type) => {
    expect(isBitcoinAddress(address)).toBe(true);
    expect(bitcoinAddressType(address)).toBe(type);
    expect(bitcoinAddressSchema.parse(address)).toBe(address);
  });

  it.each(invalid)('rejects %s, saying why', (address, reason) => {
    expect(isBitcoinAddress(address)).toBe(false);
    expect(bitcoinAddressType(address)).toBeUndefined();
    const parsed = bitcoinAddressSchema.safeParse(address);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toMatch(reason);
  });

  it('rejects values that are not strings', () => {
    for (const value of [undefined, null, 1, ['1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa'], {}]) {
      expect(isBitcoinAddress(value)).toBe(false);
      expect(bitcoinAddressSchema.safeParse(value).success).toBe(false);
    }
  });

  it('rejects any one-character change of a valid address', () => {
    const alphabet = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
    fc.assert(
      fc.property(
        fc.constantFrom(...valid.slice(0, 12).map(([address]) => address)),
        fc.nat(),
        fc.constantFrom(...alphabet),
        (address, at, replacement) => {
          const index = 4 + (at % (address.length - 4));
          fc.pre(address[index]!.toLowerCase() !== replacement.toLowerCase());
          const tampered = address.slice(0, index) + replacement + address.slice(index + 1);
          expect(isBitcoinAddress(tampered)).toBe(false);
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('extended public keys', () => {
  it.each([
    [XPUB, 'xpub'],
    [YPUB, 'ypub'],
    [ZPUB, 'zpub'],
  ])('accepts %s as %s', (key, kind) => {
    expect(isExtendedPublicKey(key)).toBe(true);
    expect(extendedPublicKeyKind(key)).toBe(kind);
    expect(extendedPublicKeySchema.parse(key)).toBe(key);
  });

  it.each([
    [`${ZPUB.slice(0, -1)}t`, /checksum/],
    [`${XPUB.slice(0, 20)}${XPUB[21]}${XPUB[20]}${XPUB.slice(22)}`, /checksum/],
    [ZPUB.slice(0, -1), /checksum|78 bytes/],
    [TPUB, /testnet/],
    [XPRV, /PRIVATE/],
    ['1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa', /78 bytes/],
    ['bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu', /base58/],
    ['', /base58|78 bytes/],
  ])('rejects %s, saying why', (key, reason) => {
    expect(isExtendedPublicKey(key)).toBe(false);
    expect(extendedPublicKeyKind(key)).toBeUndefined();
    const parsed = extendedPublicKeySchema.safeParse(key);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toMatch(reason);
  });

  it('rejects values that are not strings', () => {
    expect(isExtendedPublicKey(42)).toBe(false);
    expect(extendedPublicKeySchema.safeParse([ZPUB]).success).toBe(false);
  });
});
