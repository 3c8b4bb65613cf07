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
 * node:crypto's, where its OpenSSL has `keccak-256` (3.2 and later: Node 24): native code, and
 * synchronous from the first call.
 */
function opensslKeccak256(): Keccak256 | undefined {
  const crypto = builtinNodeCrypto();
  if (!crypto?.getHashes().includes('keccak-256')) return undefined;
  return (body, secret) => crypto.createHash('keccak-256').update(body).update(secret).digest();
}

let loading: Promise<IHasher> | undefined;
let hasher: IHasher | undefined;

function loadHasher(): Promise<IHasher> {
  loading ??= createKeccak(256).then((loaded) => (hasher = loaded));
  return loading;
}

function wasmDigest(instance: IHasher, body: string | Uint8Array, secret: Uint8Array): Uint8Array {
  instance.init();
  instance.update(body);
  instance.update(secret);
  return instance.digest('binary');
}

/** hash-wasm's WebAssembly, compiled at the first call, then at hand. */
export const wasmKeccak256: Keccak256 = (body, secret) =>
  hasher ? wasmDigest(hasher, body, secret) : loadHasher().then((loaded) => wasmDigest(loaded, body, secret));

/** The native keccak256 when this runtime has one, else `undefined`. */
export const nativeKeccak256: Keccak256 | undefined = opensslKeccak256();

/**
 * From this length (bytes, or UTF-16 units of text) OpenSSL's keccak256 is the cheaper: it costs a
 * few µs more to start (a Hash object, a Buffer for the digest), then hashes about 1.35× as fast as
 * hash-wasm. CPU µs a hash on Node 24.22.3 (a loop of each, on this 2-core machine while it ran
 * the test suite), OpenSSL's against hash-wasm's: 1 KB 4.5 and 4.2, 2 KB 7.9–9.8 and 8.2, 4 KB 13
 * and 16, 50 KB 101 and 138.
 */
export const NATIVE_FROM_LENGTH = 4096;

/**
 * The cheaper keccak256 for each body where the runtime has a native one: hash-wasm's below
 * `NATIVE_FROM_LENGTH` once it is loaded (OpenSSL's until then, so no call waits), OpenSSL's from
 * there. Elsewhere (Node 22, browsers, workers) hash-wasm's for every body.
 */
export const keccak256: Keccak256 = nativeKeccak256 ? chooseBySize(nativeKeccak256) : wasmKeccak256;

function chooseBySize(native: Keccak256): Keccak256 {
  return (body, secret) => {
    if (body.length >= NATIVE_FROM_LENGTH) return native(body, secret);
    if (hasher) return wasmDigest(hasher, body, secret);
    // Until hash-wasm is compiled (and for good, should it fail to), OpenSSL's: no call waits.
    loadHasher().catch(() => undefined);
    return native(body, secret);
  };
}
