import { libraryBuild } from '../../tsup.preset';

// operations: what runs without a runtime (no timers, process, globalThis, console), for hosts
// such as an n8n node. The entries share their modules through chunks, so a class is one class
// whichever entry it came through.
export default libraryBuild(
  {
    index: 'src/index.ts',
    operations: 'src/operations.ts',
    webhooks: 'src/webhooks/index.ts',
    postgres: 'src/webhooks/postgres-store.ts',
  },
  { splitting: true },
);
