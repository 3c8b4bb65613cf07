export interface WebhookUrlRules {
  /**
   * Demand a public HTTPS endpoint, as the real service does for Bitcoin streams. Off, any http(s)
   * URL passes: a receiver on 127.0.0.1 behind the emulator, for instance.
   */
  requirePublicHttps: boolean;
}

/**
 * Why `webhookUrl` cannot be a stream's webhook target, or `undefined` when it can. With
 * `requirePublicHttps`, loopback, private, link-local, CGNAT and multicast addresses, `localhost`,
 * `.local`/`.internal` names and bare host names are refused: the service could never reach them.
 */
export function webhookUrlProblem(webhookUrl: string, rules: WebhookUrlRules): string | undefined {
  let url: URL;
  try {
    url = new URL(webhookUrl);
  } catch {
    return 'webhookUrl must be an absolute URL';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'webhookUrl must be an http(s) URL';
  if (!rules.requirePublicHttps) return undefined;
  if (url.protocol !== 'https:') return 'webhookUrl must be a public HTTPS endpoint, not http';
  if (!isPublicHost(url.hostname)) {
    return `webhookUrl must be a public HTTPS endpoint; ${url.hostname} is not public`;
  }
  return undefined;
}

/**
 * The IP version of a host name as the URL parser leaves it (0 for a name): it writes every IPv4
 * form (`0x7f.1`, `2130706433`) as four decimals and an IPv6 address in brackets. Worked out
 * here, not with `node:net`, so the check runs on any host (an n8n node may not import it).
 */
function ipVersion(hostname: string): 0 | 4 | 6 {
  if (hostname.startsWith('[')) return 6;
  return /^\d{1,3}(\.\d{1,3}){3}$/.test(hostname) ? 4 : 0;
}

function isPublicHost(hostname: string): boolean {
  const version = ipVersion(hostname);
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    host.endsWith('.local') ||
    host.endsWith('.internal')
  ) {
    return false;
  }
  if (version === 4) {
    const [a, b] = host.split('.').map(Number) as [number, number];
    return !(
      a === 0 ||
      a === 10 ||
      a === 127 ||
      (a === 100 && b >= 64 && b <= 127) ||
      (a === 169 && b === 254) ||
      (a === 172 && b >= 16 && b <= 31) ||
      (a === 192 && b === 168) ||
      a >= 224
    );
  }
  if (version === 6) {
    if (host === '::' || host === '::1') return false;
    if (host.startsWith('::ffff:')) return isPublicHost(mappedIpv4(host.slice(7)));
    return !/^(fc|fd|fe[89ab]|ff)/.test(host);
  }
  // A name without a dot cannot be resolved publicly.
  return host.includes('.');
}

/** The IPv4 address of an IPv4-mapped IPv6 tail, which URL parsing writes in hex (`7f00:1`). */
function mappedIpv4(tail: string): string {
  const hex = /^([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(tail);
  if (!hex) return tail;
  const high = Number.parseInt(hex[1]!, 16);
  const low = Number.parseInt(hex[2]!, 16);
  return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
}
