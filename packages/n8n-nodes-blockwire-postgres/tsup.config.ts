import { defineConfig } from 'tsup';

// Laid out as n8n-nodes-blockwire is (see its tsup.config.ts): one self-contained CommonJS file per
// node and credential. The trigger's code comes from n8n-nodes-blockwire's sources, bundled in with
// the pure-JavaScript PostgreSQL driver `pg` and its helpers; `pg-native` (an optional C binding
// pg loads only when asked for) stays out. This package is not submitted for n8n's verification:
// a database driver is what verified nodes may not ship.
export default defineConfig({
  entry: {
    'credentials/BlockwirePostgresApi.credentials': 'credentials/BlockwirePostgresApi.credentials.ts',
    'nodes/BlockwireTriggerPostgres/BlockwireTriggerPostgres.node':
      'nodes/BlockwireTriggerPostgres/BlockwireTriggerPostgres.node.ts',
  },
  outDir: 'dist',
  format: ['cjs'],
  outExtension: () => ({ js: '.js' }),
  target: 'node22',
  platform: 'node',
  bundle: true,
  noExternal: [
    /^@blockwire\//,
    /^n8n-nodes-blockwire\//,
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
  splitting: false,
  treeshake: true,
  sourcemap: false,
  clean: true,
  dts: false,
  publicDir: false,
  onSuccess: 'node scripts/copy-assets.mjs',
});
