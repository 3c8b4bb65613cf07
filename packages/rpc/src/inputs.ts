/**
 * Rules for the arguments of the typed methods. Each schema's output is the wire value, so a
 * validated argument goes into `params` as is.
 */
import { evmAddress } from '@blockwire/core/operations';
import * as z from 'zod/v4';

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

/** A storage slot for `eth_getProof`; pad a slot number to 32 bytes. */
export const storageKeyInput = hexOfBytes(32, 'a 32-byte storage key').meta({
  description: 'A storage slot: 0x and 64 hex digits (pad a slot number to 32 bytes).',
});

export const addressInput = z
  .pipe(
    evmAddress,
    z.transform((value: string) => value as Hex),
  )
  .meta({
    description: 'An account or contract address: 0x and 40 hex digits.',
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
