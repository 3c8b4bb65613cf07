import { libraryBuild } from '../../tsup.preset';

// node-version: a side-effect-free entry a CLI can import to check Node before loading the rest.
export default libraryBuild({ index: 'src/index.ts', 'node-version': 'src/node-version.ts' });
