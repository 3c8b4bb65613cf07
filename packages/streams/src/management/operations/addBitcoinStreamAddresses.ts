import {
  type CallOptions,
  type Client,
  defineEndpoint,
  mapWithConcurrency,
  ValidationError,
  validateInput,
} from '@blockwire/core/operations';
import * as z from 'zod/v4';
import { bitcoinAddressSchema } from '../bitcoin-address.js';
import { bitcoinStreamIdSchema } from '../schemas.js';
import { addBitcoinStreamAddress, addBitcoinStreamAddressOperation } from './addBitcoinStreamAddress.js';

export const addBitcoinStreamAddressesInput = z.strictObject({
  id: bitcoinStreamIdSchema,
  addresses: z.array(bitcoinAddressSchema, { error: 'must be a list of Bitcoin addresses' }).meta({
    description: 'Bitcoin mainnet addresses to watch; one request each (the service takes one at a time).',
    examples: [['bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu', 'bc1qnjg0jd8228aq7egyzacy8cys3knf9xvrerkf9g']],
  }),
});
export type AddBitcoinStreamAddressesInput = z.input<typeof addBitcoinStreamAddressesInput>;

export interface AddBitcoinStreamAddressesOptions extends CallOptions {
  /** Requests in flight at once. Default 4. */
  concurrency?: number;
}

export type AddBitcoinStreamAddressResult =
  | { address: string; ok: true; response: unknown }
  | { address: string; ok: false; error: Error };

export const DEFAULT_ADDRESS_CONCURRENCY = 4;

/**
 * Adds many addresses to a Bitcoin stream, one request per address (the service's limit), a few
 * at a time. Every address is checked before the first request; after that, one address failing
 * does not stop the others: each gets its own `{ address, ok, error? }` result, in input order.
 * Aborting the signal stops the remaining requests and rejects.
 */
export async function addBitcoinStreamAddresses(
  client: Client,
  input: AddBitcoinStreamAddressesInput,
  options: AddBitcoinStreamAddressesOptions = {},
): Promise<AddBitcoinStreamAddressResult[]> {
  const { id, addresses } = validateInput(addBitcoinStreamAddressesInput, input, {
    operation: 'addBitcoinStreamAddresses',
  });
  const concurrency = options.concurrency ?? DEFAULT_ADDRESS_CONCURRENCY;
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new ValidationError([{ path: 'concurrency', message: 'must be an integer >= 1' }], {
      subject: 'options of addBitcoinStreamAddresses',
    });
  }
  const { signal } = options;
  return mapWithConcurrency(
    addresses,
    concurrency,
    async (address): Promise<AddBitcoinStreamAddressResult> => {
      signal?.throwIfAborted();
      try {
        const response = await addBitcoinStreamAddress(client, { id, address }, { signal });
        return { address, ok: true, response };
      } catch (error) {
        if (signal?.aborted) throw signal.reason;
        return { address, ok: false, error: error instanceof Error ? error : new Error(String(error)) };
      }
    },
  );
}

/** The endpoint: the service adds one address a request; its SDK function takes a list. */
export const addBitcoinStreamAddressEndpoint = defineEndpoint(addBitcoinStreamAddressOperation, {
  input: addBitcoinStreamAddressesInput,
  call: addBitcoinStreamAddresses,
});
