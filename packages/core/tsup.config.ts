import { libraryBuild } from '../../tsup.preset';

// internal: the plumbing the packages and the emulator share, kept out of the main entry.
// node-version: a side-effect-free entry a CLI can import to check Node before loading the rest.
export default libraryBuild({
  index: 'src/index.ts',
  internal: 'src/internal.ts',
  'node-version': 'src/node-version.ts',
});
