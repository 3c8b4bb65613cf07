/**
 * Rules for the arguments of the typed methods. Each schema's output is the wire value, so a
 * validated argument goes into `params` as is.
 */
import { evmAddress } from '@blockwire/core/operations';
import * as z from 'zod/v4';
import { keccak256 } from './keccak.js';

export type Hex = `0x${string}`;

/** A block number or one of the tags every node of the interface accepts. */
export type BlockTag = 'latest' | 'earliest' | 'pending' | number | bigint | Hex | `${bigint}`;

/** Anything that stands for a non-negative integer: a number, a bigint, a `0x` hex or decimal string. */
export type Quantity = number | bigint | Hex | `${bigint}`;

const BLOCK_TAGS = new Set(['latest', 'earliest', 'pending']);

/** JSON-RPC quantities are at most 256 bits. */
const MAX_QUANTITY = 2n ** 256n - 1n;
/** Longer than any 256-bit number written in hex or decimal, leading zeros allowed: refused unparsed. */
const MAX_QUANTITY_TEXT = 100;

/**
 * A non-negative integer of at most 256 bits as a minimal `0x` hex string (0 → `0x0`): nodes
 * reject leading zeros. Undefined when the value is not one.
 */
export function toQuantity(value: unknown): Hex | undefined {
  let integer: bigint;
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value) || value < 0) return undefined;
    integer = BigInt(value);
  } else if (typeof value === 'bigint') {
    integer = value;
  } else if (
    typeof value === 'string' &&
    value.length <= MAX_QUANTITY_TEXT &&
    /^(0x[0-9a-fA-F]+|\d+)$/.test(value)
  ) {
    integer = BigInt(value);
  } else {
    return undefined;
  }
  if (integer < 0n || integer > MAX_QUANTITY) return undefined;
  return `0x${integer.toString(16)}`;
}

function hexOfBytes(bytes: number, what: string) {
  return z
    .string({ error: `must be ${what}: 0x and ${bytes * 2} hex digits` })
    .regex(new RegExp(`^0x[0-9a-fA-F]{${bytes * 2}}$`), {
      error: `must be ${what}: 0x and ${bytes * 2} hex digits`,
    })
    .transform((value) => value as Hex);
}

/** A block or transaction hash. */
export const hashInput = hexOfBytes(32, 'a 32-byte hash').meta({
  description: 'A 32-byte hash: 0x and 64 hex digits.',
  examples: ['0x793497fb459c621d038e62832198967efcad4f83c47bd0fbc6c4d916615d22a3'],
});

const STORAGE_KEY_MESSAGE = 'must be a storage key: 0x and 1 to 64 hex digits';

/**
 * A storage slot for `eth_getProof`: any hex of at most 32 bytes, as geth and anvil accept
 * (`0x0`), sent padded to 32 bytes, the form every node takes.
 */
export const storageKeyInput = z
  .string({ error: STORAGE_KEY_MESSAGE })
  .regex(/^0x[0-9a-fA-F]{1,64}$/, { error: STORAGE_KEY_MESSAGE })
  .transform((value) => `0x${value.slice(2).padStart(64, '0')}` as Hex)
  .meta({ description: 'A storage slot: 0x and up to 64 hex digits (0x0 is slot 0).' });

/** An address with its EIP-55 checksum: hex letters upper case where its hash's nibble is 8 or more. */
export function toChecksumAddress(address: string): Hex {
  const lower = address.slice(2).toLowerCase();
  const hash = keccak256(lower);
  let out = '0x';
  for (let i = 0; i < 40; i++) {
    const nibble = (hash[i >> 1]! >> (i % 2 === 0 ? 4 : 0)) & 0xf;
    out += nibble >= 8 ? lower[i]!.toUpperCase() : lower[i]!;
  }
  return out as Hex;
}

/**
 * An address in one case is taken as is; a mixed-case one carries an EIP-55 checksum, and a wrong
 * checksum is a mistyped address, refused with the right spelling only when the digits are right.
 */
export const addressInput = z
  .pipe(
    evmAddress,
    z.transform((value: string, ctx) => {
      const digits = value.slice(2);
      if (digits !== digits.toLowerCase() && digits !== digits.toUpperCase()) {
        const checksummed = toChecksumAddress(value);
        if (checksummed !== value) {
          ctx.issues.push({
            code: 'custom',
            input: value,
            message: `has a wrong EIP-55 checksum (mixed case must be ${checksummed} for these digits; a typo changes the address): check the address, or give it in one case`,
          });
          return z.NEVER;
        }
      }
      return value as Hex;
    }),
  )
  .meta({
    description:
      'An account or contract address: 0x and 40 hex digits (mixed case must carry a valid EIP-55 checksum).',
    examples: ['0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'],
  });

const QUANTITY_MESSAGE = 'must be an integer from 0 to 2^256-1 (number, bigint, 0x hex or decimal string)';

/** A non-negative integer sent as minimal hex, e.g. an uncle's index. */
export const quantityInput = z
  .union([z.number(), z.bigint(), z.string()], { error: QUANTITY_MESSAGE })
  .transform((value, ctx) => {
    const quantity = toQuantity(value);
    if (quantity === undefined) {
      ctx.issues.push({ code: 'custom', message: QUANTITY_MESSAGE, input: value });
      return z.NEVER;
    }
    return quantity;
  })
  .meta({ description: 'A position counting from 0 (a number, or 0x hex).', examples: ['0'] });

const BLOCK_TAG_MESSAGE =
  'must be a block number (number, bigint, 0x hex or decimal string) or one of latest, earliest, pending';

export const blockTagInput = z
  .union([z.number(), z.bigint(), z.string()], { error: BLOCK_TAG_MESSAGE })
  .transform((value, ctx): Hex | 'latest' | 'earliest' | 'pending' => {
    if (typeof value === 'string' && BLOCK_TAGS.has(value)) return value as 'latest' | 'earliest' | 'pending';
    const quantity = toQuantity(value);
    if (quantity === undefined) {
      ctx.issues.push({ code: 'custom', message: BLOCK_TAG_MESSAGE, input: value });
      return z.NEVER;
    }
    return quantity;
  })
  .meta({
    title: 'Block',
    description: 'A block number (decimal or 0x hex) or a tag: latest, earliest or pending.',
    examples: ['latest'],
  });

export const fullTransactionsInput = z
  .boolean({ error: 'must be true or false' })
  .default(false)
  .meta({ description: 'Return full transaction objects instead of their hashes.' });

/** A state to read at: a block number or a tag; `latest` when left out. */
export const stateTagInput = blockTagInput
  .optional()
  .transform((tag) => tag ?? 'latest')
  .meta({
    title: 'Block',
    description:
      'The state to read: a block number (decimal or 0x hex) or latest, earliest, pending; latest when left out.',
    examples: ['latest'],
  });

const DATA_MESSAGE = 'must be 0x and an even number of hex digits';

/** Bytes as `0x` hex (calldata, code): any even number of digits, `0x` alone is empty. */
export const dataInput = z
  .string({ error: DATA_MESSAGE })
  .regex(/^0x([0-9a-fA-F]{2})*$/, { error: DATA_MESSAGE })
  .transform((value) => value as Hex)
  .meta({ description: 'Bytes as 0x and hex digits, two per byte.', examples: ['0x70a08231'] });

/** A storage slot as a number or hex, sent as 32 bytes (the form every node accepts). */
export const storageSlotInput = quantityInput
  .transform((quantity) => `0x${quantity.slice(2).padStart(64, '0')}` as Hex)
  .meta({ description: 'The storage slot: a number or 0x hex (sent padded to 32 bytes).', examples: ['0'] });

/**
 * The call of `eth_call` and `eth_estimateGas`: to whom, from whom, with what data and value. Other
 * fields (EIP-1559 fees, an access list, `input`) pass through unchecked: viem and ethers send them.
 */
export const callInput = z
  .looseObject(
    {
      to: addressInput
        .optional()
        .meta({ description: 'The contract called; left out to estimate a deployment.' }),
      from: addressInput
        .optional()
        .meta({ description: 'The caller (msg.sender); the zero address when left out.' }),
      data: dataInput
        .optional()
        .meta({ description: 'The calldata: a 4-byte selector and the encoded arguments.' }),
      value: quantityInput.optional().meta({ description: 'Wei sent with the call.' }),
      gas: quantityInput.optional().meta({ description: 'The most gas the call may use.' }),
      gasPrice: quantityInput.optional().meta({ description: 'The gas price of a legacy call, in wei.' }),
    },
    { error: 'must be a call object: { to, from?, data?, value?, gas?, gasPrice? }' },
  )
  .meta({
    description: 'The call: { to, from?, data?, value?, gas?, gasPrice? }, addresses and 0x hex data.',
    examples: [{ to: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48', data: '0x18160ddd' }],
  });
