/**
 * A value transfer signed the way a wallet signs it: an EIP-1559 (type 2) transaction, RLP-encoded
 * and signed with secp256k1 over its keccak-256 hash, ready for `eth_sendRawTransaction`. Just
 * what the demo's "send a test transaction" needs, on audited primitives (@noble/curves, @noble/hashes).
 */
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { bytesToHex, concatBytes, hexToBytes } from '@noble/hashes/utils.js';

export interface Transfer {
  chainId: bigint;
  nonce: bigint;
  maxPriorityFeePerGas: bigint;
  maxFeePerGas: bigint;
  gas: bigint;
  /** 0x-prefixed, 40 hex digits. */
  to: string;
  /** In wei. */
  value: bigint;
}

const TRANSACTION_TYPE = 0x02;
const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const PRIVATE_KEY = /^0x[0-9a-fA-F]{64}$/;

type RlpItem = Uint8Array | RlpItem[];

/** Recursive Length Prefix, Ethereum's serialisation (yellow paper, appendix B). */
export function rlp(item: RlpItem): Uint8Array {
  if (item instanceof Uint8Array) {
    if (item.length === 1 && item[0]! < 0x80) return item;
    return concatBytes(lengthPrefix(item.length, 0x80), item);
  }
  const payload = concatBytes(...item.map(rlp));
  return concatBytes(lengthPrefix(payload.length, 0xc0), payload);
}

function lengthPrefix(length: number, offset: number): Uint8Array {
  if (length < 56) return Uint8Array.of(offset + length);
  const size = quantity(BigInt(length));
  return concatBytes(Uint8Array.of(offset + 55 + size.length), size);
}

/** A number as RLP carries it: big-endian without leading zeros (zero is the empty string). */
function quantity(value: bigint): Uint8Array {
  if (value < 0n) throw new RangeError(`a transaction field cannot be negative (${value})`);
  if (value === 0n) return new Uint8Array(0);
  const hex = value.toString(16);
  return hexToBytes(hex.length % 2 === 0 ? hex : `0${hex}`);
}

function privateKeyBytes(privateKey: string): Uint8Array {
  if (!PRIVATE_KEY.test(privateKey)) throw new TypeError('a private key is 0x and 64 hex digits');
  return hexToBytes(privateKey.slice(2));
}

/** The account of a private key: the last 20 bytes of keccak-256 of its public key, lower case. */
export function addressOf(privateKey: string): string {
  const publicKey = secp256k1.getPublicKey(privateKeyBytes(privateKey), false);
  return `0x${bytesToHex(keccak_256(publicKey.subarray(1)).subarray(12))}`;
}

/** The signed transaction as `eth_sendRawTransaction` takes it: 0x-prefixed hex. */
export function signTransfer(transfer: Transfer, privateKey: string): string {
  if (!EVM_ADDRESS.test(transfer.to)) throw new TypeError(`"to" is not an address: ${transfer.to}`);
  const fields: RlpItem[] = [
    quantity(transfer.chainId),
    quantity(transfer.nonce),
    quantity(transfer.maxPriorityFeePerGas),
    quantity(transfer.maxFeePerGas),
    quantity(transfer.gas),
    hexToBytes(transfer.to.slice(2)),
    quantity(transfer.value),
    new Uint8Array(0), // data
    [], // access list
  ];
  const unsigned = concatBytes(Uint8Array.of(TRANSACTION_TYPE), rlp(fields));
  // 65 bytes: the recovery bit (y parity), then r and s; low s, deterministic k (RFC 6979).
  const signature = secp256k1.sign(keccak_256(unsigned), privateKeyBytes(privateKey), {
    prehash: false,
    format: 'recovered',
  });
  const [yParity, r, s] = [signature[0]!, signature.subarray(1, 33), signature.subarray(33)];
  const signed = rlp([...fields, quantity(BigInt(yParity)), quantity(toBigInt(r)), quantity(toBigInt(s))]);
  return `0x${bytesToHex(concatBytes(Uint8Array.of(TRANSACTION_TYPE), signed))}`;
}

const toBigInt = (bytes: Uint8Array) => BigInt(`0x${bytesToHex(bytes)}`);
