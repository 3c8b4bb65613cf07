import { defineConfig, type Options } from 'tsup';
import verified from '../n8n-nodes-blockwire/tsup.config';

const base = verified as Options;

// Built as n8n-nodes-blockwire is (its tsup.config.ts: one CommonJS file per node and
// credential), with the trigger's code from n8n-nodes-blockwire's sources and, bundled in, the
// pure-JavaScript PostgreSQL driver `pg` and its helpers; `pg-native` (an optional C binding pg
// loads only when asked for) stays out. A database driver is what n8n's verified nodes may not
// ship: this package is not submitted for verification.
export default defineConfig({
  ...base,
  entry: {
    'credentials/BlockwirePostgresApi.credentials': 'credentials/BlockwirePostgresApi.credentials.ts',
    'nodes/BlockwireTriggerPostgres/BlockwireTriggerPostgres.node':
      'nodes/BlockwireTriggerPostgres/BlockwireTriggerPostgres.node.ts',
  },
  noExternal: [
    ...(base.noExternal ?? []),
    /^n8n-nodes-blockwire\//,
    /^pg($|-)/,
    /^postgres-/,
    'pgpass',
    'split2',
    'xtend',
  ],
  external: [...(base.external ?? []), 'pg-native'],
});
