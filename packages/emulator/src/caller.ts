/**
 * Which callers the emulator answers. It holds a public default key and can be told to POST
 * webhooks anywhere, so by default it answers loopback names and loopback pages only: a request
 * naming another host (DNS rebinding: attacker.example resolving to 127.0.0.1) or sent by a page
 * of another origin is refused before it reaches any interface. Host names that are IP literals
 * pass: rebinding needs a name.
 */

const LOOPBACK_NAMES = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

export interface CallerRules {
  /** Host names answered besides the loopback ones (for an emulator bound to another interface). */
  allowedHosts?: readonly string[];
  /** Page origins answered besides loopback pages, exactly as browsers send them (`https://app.example`). */
  allowedOrigins?: readonly string[];
}

export interface CallerCheck {
  /** Why the request is refused (a sentence), or `undefined` when it may go on. */
  problem(host: string | undefined, origin: string | undefined): string | undefined;
  /** The `access-control-allow-origin` value for this origin: itself when allowed, else none. */
  corsOrigin(origin: string | undefined): string | undefined;
}

export function createCallerCheck(rules: CallerRules = {}): CallerCheck {
  const hosts = new Set([...LOOPBACK_NAMES, ...(rules.allowedHosts ?? []).map((name) => name.toLowerCase())]);
  const origins = new Set(rules.allowedOrigins ?? []);
  const originAllowed = (origin: string) => origins.has(origin) || isLoopbackOrigin(origin);
  return {
    problem(host, origin) {
      const name = host === undefined ? undefined : hostNameOf(host);
      // An IP literal cannot be rebound: only a name can be made to point here.
      if (name === undefined || !(hosts.has(name) || isIpLiteral(name))) {
        return `The emulator answers loopback host names only, not ${JSON.stringify(host ?? '')} (allow more with --allow-host)`;
      }
      if (origin !== undefined && !originAllowed(origin)) {
        return `The emulator refuses requests from web pages of another origin (${origin}; allow it with --allow-origin)`;
      }
      return undefined;
    },
    corsOrigin: (origin) => (origin !== undefined && originAllowed(origin) ? origin : undefined),
  };
}

/** `localhost:4000` → `localhost`, `[::1]:80` → `[::1]`; `undefined` for what is not a host. */
function hostNameOf(host: string): string | undefined {
  const match = /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::\d{1,5})?$/i.exec(host.trim());
  return match ? match[1]!.toLowerCase() : undefined;
}

function isIpLiteral(name: string): boolean {
  return name.startsWith('[') || /^\d{1,3}(?:\.\d{1,3}){3}$/.test(name);
}

function isLoopbackOrigin(origin: string): boolean {
  if (origin.length > 300) return false;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  return (url.protocol === 'http:' || url.protocol === 'https:') && LOOPBACK_NAMES.has(url.hostname);
}
