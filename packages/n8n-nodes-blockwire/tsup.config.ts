import { defineConfig } from 'tsup';

// n8n loads every file listed in package.json#n8n with require(): one self-contained CommonJS file
// per node and credential, laid out as `n8n-node build` lays them out (dist/nodes/<Name>/...,
// dist/credentials/..., icons and codex .node.json files beside them). The package has no runtime
// dependencies (n8n's rule for community nodes): the Blockwire SDK is bundled in. Left to the host:
// n8n-workflow (n8n's own copy) and zod, which resolves to the zod 3.25 that n8n ships, through its
// `zod/v4` entry (n8n puts its own node_modules on the module path of community nodes).
export default defineConfig({
  entry: {
    'credentials/BlockwireApi.credentials': 'credentials/BlockwireApi.credentials.ts',
    'credentials/BlockwirePostgresApi.credentials': 'credentials/BlockwirePostgresApi.credentials.ts',
    'nodes/Blockwire/Blockwire.node': 'nodes/Blockwire/Blockwire.node.ts',
    'nodes/BlockwireTrigger/BlockwireTrigger.node': 'nodes/BlockwireTrigger/BlockwireTrigger.node.ts',
  },
  outDir: 'dist',
  format: ['cjs'],
  outExtension: () => ({ js: '.js' }),
  target: 'node22',
  platform: 'node',
  bundle: true,
  // The trigger's PostgreSQL repeat store bundles the pure-JavaScript driver `pg` and its helpers;
  // `pg-native` (an optional C binding pg loads only when asked for) stays out.
  noExternal: [
    /^@blockwire\//,
    'hash-wasm',
    /^@scure\//,
    /^@noble\//,
    /^pg($|-)/,
    /^postgres-/,
    'pgpass',
    'split2',
    'xtend',
  ],
  external: ['n8n-workflow', 'zod', 'zod/v4', 'pg-native'],
  esbuildPlugins: [
    {
      // The SDK's default transport (undici) is never used here: every client gets n8nTransport.
      // Replacing it keeps ~1 MB of HTTP client out of each file n8n loads at start.
      name: 'no-undici',
      setup(build) {
        build.onResolve({ filter: /^undici$/ }, () => ({ path: 'undici', namespace: 'no-undici' }));
        build.onLoad({ filter: /.*/, namespace: 'no-undici' }, () => ({
          contents:
            "function unused() { throw new Error('n8n-nodes-blockwire sends every request through n8n, not undici'); }\n" +
            'module.exports = { Agent: unused, request: unused };',
          loader: 'js',
        }));
      },
    },
  ],
  splitting: false,
  treeshake: true,
  sourcemap: false,
  clean: true,
  dts: false,
  publicDir: false,
  onSuccess: 'node scripts/copy-assets.mjs',
});
