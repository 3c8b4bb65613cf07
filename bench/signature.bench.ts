/**
 * Verifying a webhook signature: keccak256 over the re-serialized body + secret, then a compare.
 * Side by side: @blockwire/streams (hash-wasm, WebAssembly) and the pure-JS keccaks other SDKs
 * use (@noble/hashes in ethers v6 and viem; js-sha3 in ethers v5 and web3.js v1).
 */
import { timingSafeEqual } from 'node:crypto';
import { signBody, verifySignature } from '@blockwire/streams';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import jsSha3 from 'js-sha3';
import { bench, describe } from 'vitest';

const secret = 'bench-webhook-secret';

/** A Bitcoin block delivery of about `bytes` bytes, shaped like the contract's payload. */
function bitcoinDelivery(bytes: number) {
  const transactions: unknown[] = [];
  const body = {
    streamId: '5b1c8a52-6e0e-4a5f-9d1b-2f1a5d6c7e80',
    chainId: 'mainnet',
    confirmed: true,
    retries: 0,
    block: { height: '870001', hash: `0000000000000000000${'ab'.repeat(22)}`, timestamp: 1730000000 },
    transactions,
  };
  for (let i = 0; JSON.stringify(body).length < bytes; i++) {
    transactions.push({
      txid: i.toString(16).padStart(64, 'f'),
      fee: 0.00001234,
      vin: [{ txid: i.toString(16).padStart(64, 'e'), vout: 1, address: null, value: null }],
      vout: [
        {
          value: 0.01234567,
          addresses: ['bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu'],
          scriptPubKey: { type: 'witness_v0_keyhash' },
        },
        {
          value: 1.5,
          addresses: ['bc1qnjg0jd8228aq7egyzacy8cys3knf9xvrerkf9g'],
          scriptPubKey: { type: 'witness_v0_keyhash' },
        },
      ],
    });
  }
  return body;
}

function compareHex(expectedHex: string, signature: string): boolean {
  const given = Buffer.from(signature.slice(2), 'hex');
  const expected = Buffer.from(expectedHex, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

for (const [label, size] of [
  ['1 KB', 1_000],
  ['100 KB', 100_000],
  ['1.6 MB', 1_600_000],
] as const) {
  const body = bitcoinDelivery(size);
  const signature = await signBody(body, secret);

  describe(`verify the signature of a ${label} Bitcoin delivery`, () => {
    bench('@blockwire/streams verifySignature (hash-wasm)', async () => {
      if (!(await verifySignature({ body, signature, secret }))) throw new Error('mismatch');
    });

    bench('@noble/hashes keccak_256 (pure JS)', () => {
      const hex = bytesToHex(keccak_256(utf8ToBytes(JSON.stringify(body) + secret)));
      if (!compareHex(hex, signature)) throw new Error('mismatch');
    });

    bench('js-sha3 keccak256 (pure JS)', () => {
      const hex = jsSha3.keccak256(JSON.stringify(body) + secret);
      if (!compareHex(hex, signature)) throw new Error('mismatch');
    });
  });
}
