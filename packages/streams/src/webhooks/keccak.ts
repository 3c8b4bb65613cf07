import { keccak_256 } from '@noble/hashes/sha3.js';
import { createKeccak, type IHasher } from 'hash-wasm';

/**
 * keccak256 — Ethereum's, with the original Keccak padding, not SHA3-256's — over a body and then
 * the webhook secret, as 32 bytes.
 */
export type Keccak256 = (body: string | Uint8Array, secret: Uint8Array) => Uint8Array | Promise<Uint8Array>;

type NodeCrypto = typeof import('node:crypto');

/**
 * Node's node:crypto, looked up without importing it, so that a bundle for a browser or a worker
 * never asks for it. The n8n package's build replaces this function by name with a plain import
 * (its scanner forbids `globalThis`): keep the name and a body without braces.
 */
function builtinNodeCrypto(): NodeCrypto | undefined {
  const host = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  return host?.getBuiltinModule?.('node:crypto') as NodeCrypto | undefined;
}

/**
 * node:crypto's, where its OpenSSL has `keccak-256` (Node 24.22.3 has it, 24.21.0 not): native
 * code, synchronous, the fastest at every size (bench: `pnpm bench --only keccak`).
 */
function opensslKeccak256(): Keccak256 | undefined {
  const crypto = builtinNodeCrypto();
  if (!crypto?.getHashes().includes('keccak-256')) return undefined;
  return (body, secret) => crypto.createHash('keccak-256').update(body).update(secret).digest();
}

/** The native keccak256 when this runtime has one, else `undefined`. */
export const nativeKeccak256: Keccak256 | undefined = opensslKeccak256();

const encoder = new TextEncoder();

/** @noble/hashes' (audited, pure JavaScript): runs everywhere, nothing compiled. */
export const pureKeccak256: Keccak256 = (body, secret) =>
  keccak_256
    .create()
    .update(typeof body === 'string' ? encoder.encode(body) : body)
    .update(secret)
    .digest();

let loading: Promise<IHasher | undefined> | undefined;
let hasher: IHasher | undefined;
/** Set when this runtime refused to compile hash-wasm's WebAssembly: never asked again. */
let wasmRefused = false;

/**
 * hash-wasm's WebAssembly, compiled from bytes at the first call. A runtime may refuse that
 * (workerd always; a page whose Content-Security-Policy lacks 'wasm-unsafe-eval'; `node
 * --jitless`): then `undefined`, and `wasmRefused` for good.
 */
function loadHasher(): Promise<IHasher | undefined> {
  loading ??= createKeccak(256).then(
    (loaded) => (hasher = loaded),
    () => {
      wasmRefused = true;
      return undefined;
    },
  );
  return loading;
}

function wasmDigest(instance: IHasher, body: string | Uint8Array, secret: Uint8Array): Uint8Array {
  instance.init();
  instance.update(body);
  instance.update(secret);
  return instance.digest('binary');
}

/**
 * hash-wasm's where this runtime compiles it, @noble/hashes' where it refuses: the call that meets
 * the refusal is answered by @noble/hashes too. Asynchronous only until the WebAssembly is loaded.
 */
export const wasmOrPureKeccak256: Keccak256 = (body, secret) => {
  if (hasher) return wasmDigest(hasher, body, secret);
  if (wasmRefused) return pureKeccak256(body, secret);
  return loadHasher().then((loaded) =>
    loaded ? wasmDigest(loaded, body, secret) : pureKeccak256(body, secret),
  );
};

/**
 * The keccak256 the webhook kit uses. node:crypto's where the runtime has it (Node 24.22 and
 * later); elsewhere (Node 22, older Node 24, Bun, Deno, browsers, workers) hash-wasm's, 10 to 18
 * times as fast as pure JavaScript, unless the runtime refuses to compile WebAssembly from bytes,
 * where @noble/hashes' answers. CPU µs a hash (bench/README.md, "keccak"), native, hash-wasm,
 * @noble/hashes: see `pnpm bench --only keccak`.
 */
export const keccak256: Keccak256 = nativeKeccak256 ?? wasmOrPureKeccak256;
