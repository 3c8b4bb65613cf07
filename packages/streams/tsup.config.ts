import { libraryBuild } from '../../tsup.preset';

export default libraryBuild({ index: 'src/index.ts', webhooks: 'src/webhooks/index.ts' });
