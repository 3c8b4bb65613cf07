/** The demo's transaction signing, checked against the RLP spec's vectors and against viem. */
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { recoverTransactionAddress } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { addressOf, rlp, signTransfer, type Transfer } from './eip1559.js';

// Anvil's first two dev keys: published, funded on local chains only.
const KEY = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';
const OTHER_KEY = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d';

const hex = (bytes: Uint8Array) => bytesToHex(bytes);

describe('rlp', () => {
  // The examples of Ethereum's RLP documentation.
  it.each([
    ['the string "dog"', utf8ToBytes('dog'), '83646f67'],
    ['the list ["cat", "dog"]', [utf8ToBytes('cat'), utf8ToBytes('dog')], 'c88363617483646f67'],
    ['the empty string', new Uint8Array(0), '80'],
    ['the empty list', [], 'c0'],
    ['the byte 0x0f', Uint8Array.of(0x0f), '0f'],
    ['the bytes 0x0400', Uint8Array.of(0x04, 0x00), '820400'],
    ['the set theoretical three', [[], [[]], [[], [[]]]], 'c7c0c1c0c3c0c1c0'],
  ])('encodes %s', (_name, item, expected) => {
    expect(hex(rlp(item))).toBe(expected);
  });

  it('encodes a string of 56 bytes or more with a length of its length', () => {
    const text = 'Lorem ipsum dolor sit amet, consectetur adipisicing elit';
    expect(hex(rlp(utf8ToBytes(text)))).toBe(`b838${hex(utf8ToBytes(text))}`);
    const long = new Uint8Array(1024).fill(1);
    expect(hex(rlp(long)).slice(0, 6)).toBe('b90400');
    expect(hex(rlp([long])).slice(0, 12)).toBe('f90403b90400');
  });
});

describe('addressOf', () => {
  it('gives the account of a key', () => {
    expect(addressOf(KEY)).toBe('0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266');
    expect(addressOf(OTHER_KEY)).toBe(privateKeyToAccount(OTHER_KEY).address.toLowerCase());
  });

  it('refuses what is not a key', () => {
    expect(() => addressOf('0x1234')).toThrow('a private key is 0x and 64 hex digits');
  });
});

describe('signTransfer', () => {
  const transfers: [string, Transfer][] = [
    [
      'a 0.01 ether transfer on anvil',
      {
        chainId: 31_337n,
        nonce: 0n,
        maxPriorityFeePerGas: 1_000_000_000n,
        maxFeePerGas: 2_750_000_000n,
        gas: 21_000n,
        to: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
        value: 10n ** 16n,
      },
    ],
    [
      'zero fees and value, to an address of leading zeros',
      {
        chainId: 1n,
        nonce: 127n,
        maxPriorityFeePerGas: 0n,
        maxFeePerGas: 0n,
        gas: 21_000n,
        to: '0x0000000000000000000000000000000000000001',
        value: 0n,
      },
    ],
    [
      'large numbers',
      {
        chainId: 2n ** 40n,
        nonce: 2n ** 52n + 1n,
        maxPriorityFeePerGas: 2n ** 100n,
        maxFeePerGas: 2n ** 200n,
        gas: 30_000_000n,
        to: '0xffffffffffffffffffffffffffffffffffffffff',
        value: 2n ** 255n,
      },
    ],
  ];

  it.each(transfers)('signs %s exactly as viem does', async (_name, transfer) => {
    for (const key of [KEY, OTHER_KEY] as const) {
      const expected = await privateKeyToAccount(key).signTransaction({
        type: 'eip1559',
        chainId: Number(transfer.chainId),
        nonce: Number(transfer.nonce),
        maxPriorityFeePerGas: transfer.maxPriorityFeePerGas,
        maxFeePerGas: transfer.maxFeePerGas,
        gas: transfer.gas,
        to: transfer.to as `0x${string}`,
        value: transfer.value,
      });
      const signed = signTransfer(transfer, key);
      expect(signed).toBe(expected);
      const signer = await recoverTransactionAddress({ serializedTransaction: signed as `0x02${string}` });
      expect(signer.toLowerCase()).toBe(addressOf(key));
    }
  });

  it('refuses a recipient that is not an address, and a negative amount', () => {
    const [, transfer] = transfers[0]!;
    expect(() => signTransfer({ ...transfer, to: '0x1234' }, KEY)).toThrow('"to" is not an address');
    expect(() => signTransfer({ ...transfer, value: -1n }, KEY)).toThrow('cannot be negative');
  });
});
