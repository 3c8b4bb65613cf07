import { createRequire } from 'node:module';
import { defineConfig } from 'vitest/config';

// The n8n nodes run on n8n-workflow's CommonJS build inside n8n; its ESM build is not loadable by
// Node as shipped (extensionless imports, no "type": "module"), so the tests use the CommonJS one too.
const n8nWorkflow = createRequire(import.meta.url).resolve('n8n-workflow', {
  paths: ['packages/n8n-nodes-blockwire'],
});

// One run over every package. Packages import each other through their built `dist`
// (npm test builds first), so the tests exercise what ships.
export default defineConfig({
  resolve: { alias: [{ find: /^n8n-workflow$/, replacement: n8nWorkflow }] },
  test: {
    include: [
      'packages/*/src/**/*.test.ts',
      'packages/*/test/**/*.test.ts',
      'apps/*/src/**/*.test.ts',
      'scripts/**/*.test.ts',
      // The reliability suite at its quick counts (`pnpm test:reliability` runs the issue's).
      'reliability/src/**/*.test.ts',
      'bench/src/**/*.test.ts',
    ],
    exclude: ['**/node_modules/**', '**/dist/**'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // A test that blocks its worker for long fails by name (see the file), not as an RPC timeout.
    setupFiles: ['scripts/event-loop-guard.ts'],
  },
});
