/**
 * A wallet read: one of the reads people ask a node for first (a balance, a token balance, a
 * contract call, logs, the block number, the gas price), described once as data so the n8n node
 * and the MCP server derive their actions and tools from the same list (`walletReads`).
 *
 * - `input`: a zod object; its field names are the parameters n8n and MCP show, its field
 *   descriptions their help text.
 * - `run`: validates the input (a `ValidationError` names the field) and reads through an
 *   `RpcClient`; the output is JSON as is: bigints as decimal strings, the node's hex kept.
 *   Reads started in one tick share a JSON-RPC batch, so run items together.
 * - `simplify`: the output for people: formatted amounts (ETH, gwei, token units), the exact
 *   values under `raw`; `simplified` is its schema.
 * - `examples`: inputs the emulator answers (./examples.ts names what they read).
 */
import { type CallOptions, validateInput } from '@blockwire/core/operations';
import type * as z from 'zod/v4';
import type { RpcClient } from '../client.js';

export interface WalletRead<
  I extends z.ZodObject = z.ZodObject,
  O = unknown,
  S extends z.ZodType = z.ZodType,
> {
  id: string;
  displayName: string;
  description: string;
  input: I;
  run(client: RpcClient, input: z.input<I>, options?: CallOptions): Promise<O>;
  simplify(output: O): z.output<S>;
  /** What `simplify` answers: MCP's output schema, checked against every example's answer. */
  simplified: S;
  /** Inputs the emulator answers: MCP's examples, and cases every host's tests run. */
  examples: readonly z.input<I>[];
  /** Every wallet read only reads: MCP's readOnlyHint, n8n's no-side-effect actions. */
  readOnly: true;
}

/**
 * A wallet read's operation id across hosts: `wallet` and the read's id (`walletGetTokenBalance`),
 * since the raw JSON-RPC methods already hold their names (`getBalance`: wei as 0x hex).
 */
export function walletOperationId(read: Pick<WalletRead, 'id'>): string {
  return `wallet${read.id[0]!.toUpperCase()}${read.id.slice(1)}`;
}

/** Declares a wallet read; `run` gets the validated input. */
export function defineWalletRead<I extends z.ZodObject, O, S extends z.ZodType>(read: {
  id: string;
  displayName: string;
  description: string;
  input: I;
  run(client: RpcClient, input: z.output<I>, options?: CallOptions): Promise<O>;
  simplify(output: O): z.output<S>;
  simplified: S;
  examples: readonly z.input<I>[];
}): WalletRead<I, O, S> {
  return Object.freeze({
    ...read,
    readOnly: true as const,
    // Async, so bad input is a rejection like every other failure of a read.
    run: async (client: RpcClient, input: z.input<I>, options?: CallOptions) =>
      read.run(client, validateInput(read.input, input, { operation: read.id }) as z.output<I>, options),
  });
}

/** A decoded ABI value as JSON: bigints as decimal strings, arrays and objects walked. */
export function toJson(value: unknown): unknown {
  if (typeof value === 'bigint') return value.toString();
  if (Array.isArray(value)) return value.map(toJson);
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, toJson(item)]));
  }
  return value;
}
