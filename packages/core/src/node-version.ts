/**
 * Which Node.js the packages run on. undici, the HTTP client, crashes at import on older ones
 * (`Cannot read properties of undefined (reading 'bind')` on Node 20); this says so first, in
 * one sentence. Free of side effects and dependencies, so a CLI can check before loading anything.
 */

// package.json's `engines.node` (e.g. `>=22.19`), put in at build time (tsup.preset.ts); absent from source.
declare const __BLOCKWIRE_NODE_ENGINES__: string | undefined;
const ENGINES = typeof __BLOCKWIRE_NODE_ENGINES__ === 'string' ? __BLOCKWIRE_NODE_ENGINES__ : '';

/**
 * The sentence to show when `running` (default: this process's Node.js) is older than `required`
 * (a `>=major.minor[.patch]` range, default: the package's `engines.node`); undefined when it is fine.
 */
export function unsupportedNodeMessage(
  running: string = nodeProcess()?.versions?.node ?? '',
  required: string = ENGINES,
): string | undefined {
  const minimum = /^>=\s*v?(\d+)\.(\d+)(?:\.(\d+))?$/.exec(required.trim());
  const current = /^v?(\d+)\.(\d+)\.(\d+)/.exec(running);
  if (!minimum || !current) return undefined;
  const wanted = minimum.slice(1).map((part) => Number(part ?? 0));
  const actual = current.slice(1).map(Number);
  // The first part that differs decides; all equal is fine.
  const differs = wanted.findIndex((part, i) => part !== actual[i]);
  if (differs === -1 || actual[differs]! > wanted[differs]!) return undefined;
  const needed = minimum[3] === undefined ? `${minimum[1]}.${minimum[2]}` : minimum.slice(1).join('.');
  return `Blockwire needs Node.js ${needed} or newer; this is Node.js ${actual.join('.')} (${nodeProcess()?.execPath}).`;
}

/** Node's `process`, or undefined where there is none (a browser): nothing to check there. */
function nodeProcess(): { versions?: { node?: string }; execPath?: string } | undefined {
  return (globalThis as { process?: { versions?: { node?: string }; execPath?: string } }).process;
}
