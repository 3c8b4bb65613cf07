import { HDKey } from '@scure/bip32';
import * as btc from '@scure/btc-signer';

/** SLIP-132 version bytes: each prefix says which script its addresses use. */
const VERSIONS = {
  xpub: { versions: { private: 0x0488ade4, public: 0x0488b21e }, addressType: 'p2pkh' },
  ypub: { versions: { private: 0x049d7878, public: 0x049d7cb2 }, addressType: 'p2sh-p2wpkh' },
  zpub: { versions: { private: 0x04b2430c, public: 0x04b24746 }, addressType: 'p2wpkh' },
} as const;

export type XpubAddressType = (typeof VERSIONS)[keyof typeof VERSIONS]['addressType'];

export interface XpubKey {
  prefix: keyof typeof VERSIONS;
  addressType: XpubAddressType;
  /** Address at `chain/index`: chain 0 receives, chain 1 is change. */
  address(chain: 0 | 1, index: number): string;
}

/** Parses an xpub/ypub/zpub; throws a RangeError naming the problem. */
export function parseXpub(xpub: string): XpubKey {
  const prefix = xpub.slice(0, 4);
  if (!(prefix in VERSIONS)) throw new RangeError('must start with xpub, ypub or zpub');
  const spec = VERSIONS[prefix as keyof typeof VERSIONS];
  let key: HDKey;
  try {
    key = HDKey.fromExtendedKey(xpub, spec.versions);
  } catch (error) {
    throw new RangeError(`is not a valid extended public key (${(error as Error).message})`);
  }
  const chains = [key.deriveChild(0), key.deriveChild(1)] as const;
  return {
    prefix: prefix as keyof typeof VERSIONS,
    addressType: spec.addressType,
    address(chain, index) {
      const publicKey = chains[chain].deriveChild(index).publicKey!;
      if (spec.addressType === 'p2wpkh') return btc.p2wpkh(publicKey).address!;
      if (spec.addressType === 'p2pkh') return btc.p2pkh(publicKey).address!;
      return btc.p2sh(btc.p2wpkh(publicKey)).address!;
    },
  };
}
