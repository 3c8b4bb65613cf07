/**
 * `BLOCKWIRE_SKIP`: the suites that need a tool this machine lacks (and cannot install), left out
 * of a run by the tool's name and reported as skipped, never as passed:
 *
 *   BLOCKWIRE_SKIP=chromium,n8n npm test
 *
 * Each suite that needs one of these tools is marked `describe.skipIf(skipped('<tool>'))`.
 */
export const TOOLS = {
  chromium: "Debian's chromium, installed with apt-get when missing (the demo's browser tests)",
  postgresql:
    "Debian's postgresql, installed with apt-get when missing (PostgreSQL stores, the cluster scenarios)",
  redis: "Debian's redis-server, installed with apt-get when missing (n8n's queue mode)",
  n8n: 'n8n 2.41.1, installed once into ~/.cache/blockwire (about 2.9 GB; the n8n end-to-end suites)',
  verdaccio: 'verdaccio 6, installed once into ~/.cache/blockwire (the release test’s private registry)',
} as const;

export type Tool = keyof typeof TOOLS;

/** The tools `BLOCKWIRE_SKIP` names; an unknown name is an error that lists the known ones. */
export function skippedTools(value = process.env.BLOCKWIRE_SKIP ?? ''): Set<Tool> {
  const names = value
    .split(/[\s,]+/)
    .map((name) => name.trim().toLowerCase())
    .filter(Boolean);
  for (const name of names) {
    if (!(name in TOOLS)) {
      throw new Error(
        `BLOCKWIRE_SKIP names "${name}", which is not a tool the tests skip by; use any of: ${Object.keys(TOOLS).join(', ')}`,
      );
    }
  }
  return new Set(names as Tool[]);
}

/** Whether a suite that needs any of `tools` is skipped in this run. */
export function skipped(...tools: Tool[]): boolean {
  const skipping = skippedTools();
  return tools.some((tool) => skipping.has(tool));
}

/**
 * The sentence a suite gives when it cannot get a tool: what it needed, why it failed, and how
 * to leave it out instead.
 */
export function cannotInstall(tool: Tool, why: string): string {
  return `This suite needs ${TOOLS[tool]}, and ${why}. Install it, or skip the suites that need it: BLOCKWIRE_SKIP=${tool} npm test`;
}
