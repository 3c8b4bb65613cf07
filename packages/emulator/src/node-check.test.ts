import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { findOldNode } from '@blockwire/testing';
import { describe, expect, it } from 'vitest';

const cli = join(import.meta.dirname, '..', 'dist', 'cli.js');
const oldNode = findOldNode();

describe('blockwire-emulator on Node.js versions', () => {
  it.skipIf(!oldNode)(
    `says in one line that ${oldNode?.path} (${oldNode?.version}) is too old, and exits 1`,
    () => {
      const run = spawnSync(oldNode!.path, [cli, '--help'], { encoding: 'utf8' });
      expect(run.stderr).toBe(
        `blockwire-emulator: Blockwire needs Node.js 22.19 or newer; this is Node.js ${oldNode!.version} (${oldNode!.path}).\n`,
      );
      expect(run.status).toBe(1);
      expect(run.stdout).toBe('');
    },
  );

  it('starts as before on the Node.js running the tests', () => {
    const run = spawnSync(process.execPath, [cli, '--help'], { encoding: 'utf8' });
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('Usage: blockwire-emulator');
  });
});
