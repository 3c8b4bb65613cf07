/* eslint-disable @n8n/community-nodes/no-restricted-imports --
   The build's own configuration: runs in Node at build time, never inside n8n. */
import { readFile } from 'node:fs/promises';
import { defineConfig, type Options } from 'tsup';

type Plugin = NonNullable<Options['esbuildPlugins']>[number];

// n8n loads every file listed in package.json#n8n with require(): one CommonJS file per node and
// credential, laid out as `n8n-node build` lays them out (dist/nodes/<Name>/...,
// dist/credentials/..., icons and codex .node.json files beside them); the code the nodes share
// is in chunks they require (dist/chunk-*.js). The package has no runtime
// dependencies (n8n's rule for community nodes) and passes n8n's verification scanner: what is
// bundled is the Blockwire SDK's operation layer without a runtime (the `operations` entries of
// @blockwire/core, streams and rpc: no timers, process, globalThis or console), hash-wasm and
// @scure/base. Left to the host: n8n-workflow (n8n's own copy) and zod, which resolves to the zod
// 3.25 that n8n ships, through its `zod/v4` entry (n8n puts its own node_modules on the module
// path of community nodes); `zod` is on the scanner's list of allowed imports. See README.md,
// "How it is built".
/**
 * hash-wasm (keccak256 for webhook signatures) finds `Buffer` and `TextEncoder` by looking for the
 * global object (`globalThis`, `self`, `window`, `global`), which n8n's scanner forbids. In Node,
 * where n8n runs, both are plain globals: its lookup is replaced with them. A version of hash-wasm
 * without that function fails the build rather than ship unpatched.
 */
const hashWasmWithoutGlobalLookup: Plugin = {
  name: 'hash-wasm-without-global-lookup',
  setup(build) {
    build.onLoad({ filter: /[\\/]hash-wasm[\\/]dist[\\/]index\.esm\.js$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      const lookup = /function getGlobal\(\) \{[^}]*\}/;
      if (!lookup.test(source)) throw new Error(`${args.path}: getGlobal() not found; check the patch`);
      return {
        contents: source.replace(lookup, 'function getGlobal() {\n    return { Buffer, TextEncoder };\n}'),
        loader: 'js',
      };
    });
  },
};

/**
 * @blockwire/streams hashes large webhook bodies with node:crypto's keccak-256, found through
 * `globalThis.process.getBuiltinModule` so that browser bundles never import node:crypto; n8n's
 * scanner forbids `globalThis` and allows node:crypto, so here that lookup becomes an import. The
 * build fails if no bundled file had the lookup, rather than ship it unpatched.
 */
const nodeCryptoWithoutGlobalLookup: Plugin = {
  name: 'node-crypto-without-global-lookup',
  setup(build) {
    const lookup = /function builtinNodeCrypto\(\) \{[^}]*\}/;
    let patched = false;
    build.onLoad({ filter: /[\\/]streams[\\/]dist[\\/][^\\/]+\.js$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      if (!lookup.test(source)) return undefined;
      patched = true;
      const contents = source.replace(lookup, 'function builtinNodeCrypto() {\n  return nodeCrypto;\n}');
      return { contents: `import * as nodeCrypto from "node:crypto";\n${contents}`, loader: 'js' };
    });
    build.onEnd((result) => {
      if (result.errors.length === 0 && !patched) {
        throw new Error('@blockwire/streams: builtinNodeCrypto() not found in its dist; check the patch');
      }
    });
  },
};

const shared: Options = {
  outDir: 'dist',
  format: ['cjs'],
  outExtension: () => ({ js: '.js' }),
  target: 'node22',
  platform: 'node',
  bundle: true,
  noExternal: [/^@blockwire\//, 'hash-wasm', /^@scure\//, /^@noble\//],
  external: ['n8n-workflow', 'zod', 'zod/v4', 'zod/v4/mini', 'zod/v4/core', 'zod/v4/locales'],
  esbuildPlugins: [hashWasmWithoutGlobalLookup, nodeCryptoWithoutGlobalLookup],
  treeshake: true,
  // Minified, keeping every function's and class's name (errors and stack traces keep theirs). The
  // sources, which n8n's verification also reads (through the package's provenance), are the
  // readable form.
  minify: true,
  keepNames: true,
  sourcemap: false,
  dts: false,
  publicDir: false,
};

export default defineConfig([
  // The nodes share the SDK's operation layer: split into chunks both require (dist/chunk-*.js),
  // so n8n loads it once, and each node file holds only what is its own.
  {
    ...shared,
    entry: {
      'nodes/Blockwire/Blockwire.node': 'nodes/Blockwire/Blockwire.node.ts',
      'nodes/BlockwireTrigger/BlockwireTrigger.node': 'nodes/BlockwireTrigger/BlockwireTrigger.node.ts',
      'nodes/BlockwirePriceTrigger/BlockwirePriceTrigger.node':
        'nodes/BlockwirePriceTrigger/BlockwirePriceTrigger.node.ts',
    },
    splitting: true,
    clean: true,
    onSuccess: 'node scripts/copy-assets.mjs',
  },
  // The credential stays one small file of its own: n8n loads it without either node.
  {
    ...shared,
    entry: { 'credentials/BlockwireApi.credentials': 'credentials/BlockwireApi.credentials.ts' },
    // It bundles none of @blockwire/streams, so the node:crypto patch (which insists) is not for it.
    esbuildPlugins: [hashWasmWithoutGlobalLookup],
    splitting: false,
    clean: false,
  },
]);
