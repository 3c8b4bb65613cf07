/**
 * Bitcoin mainnet address and extended public key checks, so a typo or a testnet value is caught
 * before a request is sent (the service serves mainnet only).
 */
import { createHash } from 'node:crypto';
import { bech32, bech32m, createBase58check } from '@scure/base';
import * as z from 'zod/v4';
import { EXAMPLE_ADDRESS, EXAMPLE_ZPUB } from './examples.js';

const base58check = createBase58check(
  (bytes: Uint8Array) => new Uint8Array(createHash('sha256').update(bytes).digest()),
);

export type BitcoinAddressType = 'p2pkh' | 'p2sh' | 'p2wpkh' | 'p2wsh' | 'p2tr' | 'witness-unknown';

type Checked<T> = { ok: true; value: T } | { ok: false; problem: string };

const BASE58_VERSIONS: Record<number, BitcoinAddressType> = { 0: 'p2pkh', 5: 'p2sh' };
const TESTNET_BASE58_VERSIONS = new Set([0x6f, 0xc4]);

function checkBase58Address(address: string): Checked<BitcoinAddressType> {
  let payload: Uint8Array;
  try {
    payload = base58check.decode(address);
  } catch {
    return { ok: false, problem: 'is not a valid Bitcoin address (bad base58 characters or checksum)' };
  }
  const version = payload[0]!;
  if (payload.length !== 21) {
    return { ok: false, problem: 'is not a valid Bitcoin address (wrong base58 payload length)' };
  }
  if (TESTNET_BASE58_VERSIONS.has(version)) {
    return { ok: false, problem: 'is a testnet address; the service watches Bitcoin mainnet only' };
  }
  const type = BASE58_VERSIONS[version];
  if (!type) {
    return { ok: false, problem: 'is not a Bitcoin mainnet address (must start with 1, 3 or bc1)' };
  }
  return { ok: true, value: type };
}

function checkSegwitAddress(address: string): Checked<BitcoinAddressType> {
  const prefix = address.slice(0, address.lastIndexOf('1')).toLowerCase();
  if (prefix === 'tb' || prefix === 'bcrt') {
    return { ok: false, problem: 'is a testnet address; the service watches Bitcoin mainnet only' };
  }
  // BIP 350: witness version 0 uses the bech32 checksum, versions 1 to 16 use bech32m.
  const asBech32 = bech32.decodeUnsafe(address);
  const usesBech32m = !asBech32;
  const decoded = asBech32 || bech32m.decodeUnsafe(address);
  if (decoded?.prefix !== 'bc' || decoded.words.length === 0) {
    return { ok: false, problem: 'is not a valid Bitcoin address (bad bech32 characters or checksum)' };
  }
  const [version, ...programWords] = decoded.words as [number, ...number[]];
  if (version > 16) return { ok: false, problem: 'is not a valid Bitcoin address (witness version > 16)' };
  if ((version === 0) === usesBech32m) {
    return {
      ok: false,
      problem:
        version === 0
          ? 'is not a valid Bitcoin address (witness version 0 must use the bech32 checksum)'
          : 'is not a valid Bitcoin address (witness version 1+ must use the bech32m checksum)',
    };
  }
  const program = bech32.fromWordsUnsafe(programWords);
  if (!program || program.length < 2 || program.length > 40) {
    return { ok: false, problem: 'is not a valid Bitcoin address (bad witness program)' };
  }
  if (version === 0) {
    if (program.length === 20) return { ok: true, value: 'p2wpkh' };
    if (program.length === 32) return { ok: true, value: 'p2wsh' };
    return { ok: false, problem: 'is not a valid Bitcoin address (a version 0 program is 20 or 32 bytes)' };
  }
  return { ok: true, value: version === 1 && program.length === 32 ? 'p2tr' : 'witness-unknown' };
}

function checkBitcoinAddress(address: unknown): Checked<BitcoinAddressType> {
  if (typeof address !== 'string') return { ok: false, problem: 'must be a string' };
  if (address.trim() !== address || address === '') {
    return { ok: false, problem: 'must be a Bitcoin address without spaces' };
  }
  return /^(bc|tb|bcrt)1/i.test(address) ? checkSegwitAddress(address) : checkBase58Address(address);
}

/** The kind of a Bitcoin mainnet address (P2PKH `1…`, P2SH `3…`, segwit `bc1q…`, taproot `bc1p…`), or undefined. */
export function bitcoinAddressType(address: unknown): BitcoinAddressType | undefined {
  const checked = checkBitcoinAddress(address);
  return checked.ok ? checked.value : undefined;
}

/** True for a Bitcoin mainnet address with a valid checksum: base58 P2PKH/P2SH, bech32 v0, bech32m v1+. */
export function isBitcoinAddress(address: unknown): address is string {
  return checkBitcoinAddress(address).ok;
}

export type ExtendedPublicKeyKind = 'xpub' | 'ypub' | 'zpub';

/** Mainnet version bytes of BIP 32 (xpub), BIP 49 (ypub) and BIP 84 (zpub) public keys. */
const XPUB_VERSIONS: Record<number, ExtendedPublicKeyKind> = {
  76067358: 'xpub',
  77429938: 'ypub',
  78792518: 'zpub',
};
const PRIVATE_VERSIONS = new Set([0x0488ade4, 0x049d7878, 0x04b2430c]);
const TESTNET_VERSIONS = new Set([0x043587cf, 0x044a5262, 0x045f1cf6]);

function checkExtendedPublicKey(key: unknown): Checked<ExtendedPublicKeyKind> {
  if (typeof key !== 'string') return { ok: false, problem: 'must be a string' };
  let payload: Uint8Array;
  try {
    payload = base58check.decode(key);
  } catch {
    return { ok: false, problem: 'is not a valid extended public key (bad base58 characters or checksum)' };
  }
  if (payload.length !== 78) {
    return { ok: false, problem: 'is not a valid extended public key (payload must be 78 bytes)' };
  }
  const version = new DataView(payload.buffer, payload.byteOffset).getUint32(0);
  if (PRIVATE_VERSIONS.has(version)) {
    return {
      ok: false,
      problem: 'is an extended PRIVATE key; never send it, pass the xpub/ypub/zpub instead',
    };
  }
  if (TESTNET_VERSIONS.has(version)) {
    return { ok: false, problem: 'is a testnet key; the service watches Bitcoin mainnet only' };
  }
  const kind = XPUB_VERSIONS[version];
  if (!kind) return { ok: false, problem: 'must be a mainnet xpub, ypub or zpub' };
  if (payload[45] !== 0x02 && payload[45] !== 0x03) {
    return { ok: false, problem: 'is not a valid extended public key (bad public key bytes)' };
  }
  return { ok: true, value: kind };
}

/** True for a mainnet xpub, ypub or zpub with a valid checksum and a 78-byte payload. */
export function isExtendedPublicKey(key: unknown): key is string {
  return checkExtendedPublicKey(key).ok;
}

/** Which of xpub, ypub or zpub a key is, or undefined when it is not a valid mainnet one. */
export function extendedPublicKeyKind(key: unknown): ExtendedPublicKeyKind | undefined {
  const checked = checkExtendedPublicKey(key);
  return checked.ok ? checked.value : undefined;
}

function schemaOf(check: (value: unknown) => Checked<unknown>) {
  return z.string({ error: 'must be a string' }).superRefine((value, ctx) => {
    const checked = check(value);
    if (!checked.ok) ctx.addIssue({ code: 'custom', message: checked.problem });
  });
}

/** A Bitcoin mainnet address; the error says what is wrong (checksum, testnet, format). */
export const bitcoinAddressSchema = schemaOf(checkBitcoinAddress).meta({
  description: 'A Bitcoin mainnet address: legacy (1…), P2SH (3…), SegWit (bc1q…) or Taproot (bc1p…).',
  examples: [EXAMPLE_ADDRESS],
});

/** A mainnet xpub, ypub or zpub; the error says what is wrong (checksum, private key, testnet). */
export const extendedPublicKeySchema = schemaOf(checkExtendedPublicKey).meta({
  title: 'Xpub',
  description: 'A mainnet extended public key (xpub, ypub or zpub); its addresses are derived and watched.',
  examples: [EXAMPLE_ZPUB],
});
