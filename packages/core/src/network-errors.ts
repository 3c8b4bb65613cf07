import type { Api } from './client-types.js';

/** What to check after a connection failure, when the code says something a person can act on. */
export function networkHint(code: string | undefined, baseUrl: string, api: Api): string | undefined {
  const host = new URL(baseUrl).hostname;
  if (code === 'ECONNREFUSED' && isLoopback(host)) {
    return `Nothing is listening at ${new URL(baseUrl).host}: is the emulator running? Start it with npx blockwire-emulator, or check baseUrls.${api}`;
  }
  if (code === 'ENOTFOUND') return `The host ${host} does not resolve: check baseUrls.${api}`;
  return undefined;
}

function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(hostname);
}

/** The error's code (`ECONNRESET`…), looked for down its causes. */
export function errorCode(error: unknown): string | undefined {
  const codes: string[] = [];
  for (let e = error, depth = 0; typeof e === 'object' && e !== null && depth < 5; depth++) {
    const { code, cause } = e as { code?: unknown; cause?: unknown };
    if (typeof code === 'string') codes.push(code);
    e = cause;
  }
  // undici wraps the system error (ECONNRESET, ECONNREFUSED) in its own: the system code says more.
  return codes.find((code) => !code.startsWith('UND_ERR_')) ?? codes[0];
}

/** The error's message, with its code when the message does not say it. */
export function describe(error: unknown): string {
  if (error instanceof Error) {
    const code = errorCode(error);
    return code && !error.message.includes(code) ? `${error.message} (${code})` : error.message;
  }
  return String(error);
}

/** A copy of a transport error that is safe to expose: no URL or header with the key in it. */
export function sanitizeCause(error: unknown, redact: (text: string) => string): Error {
  const copy = new Error(redact(error instanceof Error ? error.message : String(error)));
  copy.name = error instanceof Error ? error.name : 'Error';
  const code = errorCode(error);
  if (code) Object.assign(copy, { code });
  copy.stack = redact(`${copy.name}: ${copy.message}`);
  return copy;
}
