import { libraryBuild } from '../../tsup.preset';

export default libraryBuild({ index: 'src/index.ts' });
