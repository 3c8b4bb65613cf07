import { hex } from '@scure/base';
import { HDKey } from '@scure/bip32';
import * as btc from '@scure/btc-signer';

/** The `scriptPubKey.type` names Bitcoin Core uses, which the payloads carry. */
export type ScriptType =
  | 'witness_v0_keyhash'
  | 'pubkeyhash'
  | 'scripthash'
  | 'witness_v1_taproot'
  | 'nulldata';

export type AddressKind = 'p2wpkh' | 'p2pkh' | 'p2sh' | 'p2tr';

export interface ScriptPubKey {
  type: ScriptType;
  hex: string;
  asm: string;
  address: string | null;
}

const mainnet = btc.Address(btc.NETWORK);

const typeOf: Record<string, ScriptType> = {
  wpkh: 'witness_v0_keyhash',
  pkh: 'pubkeyhash',
  sh: 'scripthash',
  tr: 'witness_v1_taproot',
};

/** Decodes a mainnet address; throws a RangeError naming the problem. */
export function scriptForAddress(address: string): ScriptPubKey {
  let decoded: ReturnType<typeof mainnet.decode>;
  let script: Uint8Array;
  try {
    decoded = mainnet.decode(address);
    script = btc.OutScript.encode(decoded);
  } catch (error) {
    throw new RangeError(`is not a valid mainnet Bitcoin address (${(error as Error).message})`);
  }
  const type = typeOf[decoded.type];
  if (!type) throw new RangeError(`is a ${decoded.type} address, which the simulator does not produce`);
  return { type, hex: hex.encode(script), asm: asmOf(script), address };
}

/** A fresh address of the given kind from random bytes (nobody holds its key: it is only for show). */
export function randomAddress(kind: AddressKind, bytes: Uint8Array): string {
  switch (kind) {
    case 'p2wpkh':
      return mainnet.encode({ type: 'wpkh', hash: bytes.subarray(0, 20) });
    case 'p2pkh':
      return mainnet.encode({ type: 'pkh', hash: bytes.subarray(0, 20) });
    case 'p2sh':
      return mainnet.encode({ type: 'sh', hash: bytes.subarray(0, 20) });
    case 'p2tr':
      // A taproot output key must be a point on the curve: take one from a throwaway HD key.
      return mainnet.encode({
        type: 'tr',
        pubkey: HDKey.fromMasterSeed(bytes.subarray(0, 32)).publicKey!.subarray(1),
      });
  }
}

export function nullDataScript(data: Uint8Array): ScriptPubKey {
  const script = btc.Script.encode(['RETURN', data]);
  return { type: 'nulldata', hex: hex.encode(script), asm: asmOf(script), address: null };
}

/** Bitcoin Core's `asm` rendering of a script (hex or bytes). */
export function asmOf(script: Uint8Array | string): string {
  const bytes = typeof script === 'string' ? hex.decode(script) : script;
  if (bytes.length === 0) return '';
  return btc.Script.decode(bytes)
    .map((op) =>
      op instanceof Uint8Array ? hex.encode(op) : typeof op === 'number' ? String(op) : `OP_${op}`,
    )
    .join(' ');
}
