import { libraryBuild } from '../../tsup.preset';

// operations: the definitions behind the main entry, for hosts that build on them. The entries
// share their modules through chunks, so an operation object is one object whichever entry it
// came through.
export default libraryBuild({ index: 'src/index.ts', operations: 'src/operations.ts' }, { splitting: true });
