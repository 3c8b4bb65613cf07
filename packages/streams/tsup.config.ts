import { libraryBuild } from '../../tsup.preset';

export default libraryBuild({
  index: 'src/index.ts',
  webhooks: 'src/webhooks/index.ts',
  postgres: 'src/webhooks/postgres-store.ts',
});
