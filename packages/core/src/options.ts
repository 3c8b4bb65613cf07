/**
 * The options of `createClient`, their defaults, and the one place they are checked. Plain
 * JavaScript callers get no compiler help, so every mistake is a `ValidationError` naming the
 * option (and the one that was probably meant), never a silent default or a crash later.
 */
import type { Api, BaseUrls } from './client-types.js';
import { ValidationError, type ValidationIssue } from './errors.js';
import type { ClientHooks } from './hooks.js';
import { unknownKeyIssues } from './known-keys.js';
import { hasLoneSurrogate } from './path-segment.js';
import { createRedactor } from './redact.js';
import { MAX_TIMER_MS, type RetryOptions, resolveRetryOptions } from './retry.js';
import type { Transport } from './transport.js';

export type { Api, BaseUrls };

export const DEFAULT_BASE_URLS: Readonly<BaseUrls> = Object.freeze({
  evm: 'https://deep-index.moralis.io/api/v2.2',
  solana: 'https://solana-gateway.moralis.io',
  streams: 'https://api.moralis-streams.com',
  node: 'https://site1.moralis-nodes.com',
});

/**
 * The environment variables that set each interface's base URL, with what each means: one naming
 * for every program that reads them (the demo, blockwire-mcp), so one setup points all at a service.
 */
export const BASE_URL_VARIABLES: Readonly<Record<Api, { name: string; meaning: string }>> = Object.freeze({
  evm: { name: 'BLOCKWIRE_EVM_URL', meaning: 'base URL of the EVM data interface (prices, entities)' },
  solana: { name: 'BLOCKWIRE_SOLANA_URL', meaning: 'base URL of the Solana prices interface' },
  streams: { name: 'BLOCKWIRE_STREAMS_URL', meaning: 'base URL of the streams interface' },
  node: { name: 'BLOCKWIRE_NODE_URL', meaning: 'base URL of the JSON-RPC node interface' },
});

export const DEFAULT_TIMEOUT_MS = 30_000;

/**
 * 64 MiB. The largest real answers are a Bitcoin block's webhook data (a full block with inputs
 * and outputs runs to about 20 MB of JSON) and a JSON-RPC batch of 20 calls (20 blocks' receipts
 * on Ethereum mainnet: about 40 MB); this fits both with room to spare, and caps what an endless
 * or runaway body can take at a size any process can hold.
 */
export const DEFAULT_MAX_RESPONSE_BYTES = 64 * 1024 * 1024;

export interface ClientOptions {
  apiKey: string;
  /** Base URL per interface; a trailing slash or none both work. */
  baseUrls?: Partial<BaseUrls>;
  /** Per attempt, in milliseconds. Default 30 s. */
  timeoutMs?: number;
  /** Retry policy, or `false` for a single attempt. */
  retry?: Partial<RetryOptions> | false;
  /** How requests are sent. Default: undici with a keep-alive pool. */
  transport?: Transport;
  hooks?: ClientHooks;
  userAgent?: string;
  /**
   * Largest response body read, in bytes; a longer one fails with a `ResponseTooLargeError` and
   * its connection is closed. Default 64 MiB.
   */
  maxResponseBytes?: number;
  /**
   * Check the usual input and answer without zod's copies, with zod's answers (see speed/).
   * `false`: zod alone. Default `true`; code is made per answer shape only where the runtime
   * allows it, and never by the runtime-free `createClientWith` of `@blockwire/core/operations`.
   */
  fastValidation?: boolean;
}

/** Every option (the type makes this list complete), in the order the README lists them. */
const OPTION_NAMES = Object.keys({
  apiKey: true,
  baseUrls: true,
  timeoutMs: true,
  retry: true,
  transport: true,
  hooks: true,
  userAgent: true,
  maxResponseBytes: true,
  fastValidation: true,
} satisfies Record<keyof ClientOptions, true>);

const APIS = Object.keys(DEFAULT_BASE_URLS) as Api[];
const HOOK_NAMES = [
  'onRequest',
  'onResponse',
  'onRetry',
  'onCallEnd',
  'addHeaders',
] as const satisfies readonly (keyof ClientHooks)[];

/** The options with every default filled in, checked. */
export interface ResolvedOptions {
  apiKey: string;
  redact: (text: string) => string;
  baseUrls: Readonly<BaseUrls>;
  timeoutMs: number;
  retry: Readonly<RetryOptions>;
  transport: Transport | undefined;
  hooks: ClientHooks;
  userAgent: string | undefined;
  maxResponseBytes: number;
  fastValidation: boolean;
}

/** Checks every option at once; a `ValidationError` lists each problem by name. */
export function resolveClientOptions(options: ClientOptions): ResolvedOptions {
  const fail = (issues: ValidationIssue[]) => new ValidationError(issues, { subject: 'client options' });
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw fail([{ path: '', message: 'createClient needs an options object such as { apiKey }' }]);
  }
  const issues: ValidationIssue[] = [];
  const problem = (path: string, message: string) => issues.push({ path, message });
  issues.push(...unknownKeyIssues(options, { kind: 'option', names: OPTION_NAMES }));

  const apiKey = checkApiKey(options.apiKey, problem);
  // The key may sit at the end of a base URL pasted from a dashboard: mask it in what is reported.
  const redact = createRedactor(typeof options.apiKey === 'string' ? [options.apiKey] : []);
  const baseUrls = checkBaseUrls(options.baseUrls, redact, problem);

  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  // Node's timers fire at once for a delay above 2^31-1 ms, which would time out every attempt.
  if (typeof timeoutMs !== 'number' || !(timeoutMs > 0 && timeoutMs <= MAX_TIMER_MS)) {
    problem('timeoutMs', `must be a positive number of milliseconds, at most ${MAX_TIMER_MS}`);
  }

  let retry: RetryOptions | undefined;
  try {
    retry = resolveRetryOptions(options.retry);
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    issues.push(...error.issues);
  }

  const maxResponseBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  if (
    typeof maxResponseBytes !== 'number' ||
    !(maxResponseBytes >= 1 && (Number.isSafeInteger(maxResponseBytes) || maxResponseBytes === Infinity))
  ) {
    problem('maxResponseBytes', 'must be a whole number of bytes >= 1 (or Infinity for no limit)');
  }

  if (options.transport !== undefined && typeof options.transport !== 'function') {
    problem('transport', 'must be a function (request) => Promise<{ status, headers, body }>');
  }
  const fastValidation = options.fastValidation ?? true;
  if (typeof fastValidation !== 'boolean') {
    problem('fastValidation', 'must be true or false');
  }
  checkHooks(options.hooks, problem);
  if (options.userAgent !== undefined && !isHeaderText(options.userAgent)) {
    problem('userAgent', 'must be a non-empty string of printable ASCII characters (it is an HTTP header)');
  }

  if (issues.length > 0) throw fail(issues);
  return {
    apiKey: apiKey!,
    redact,
    baseUrls: baseUrls!,
    timeoutMs,
    retry: Object.freeze(retry!),
    transport: options.transport,
    hooks: options.hooks ?? {},
    userAgent: options.userAgent,
    maxResponseBytes,
    fastValidation,
  };
}

type Problem = (path: string, message: string) => void;

/** The key, or undefined after reporting what is wrong with it (never showing it). */
function checkApiKey(apiKey: unknown, problem: Problem): string | undefined {
  if (typeof apiKey !== 'string' || apiKey.trim() === '') {
    problem('apiKey', 'is required and must be a non-empty string');
    return undefined;
  }
  // Checked here, not left to the HTTP stack: a key read from a file or an environment variable
  // often ends in a newline, which would otherwise fail every request with a cryptic header error.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this looks for
  if (apiKey !== apiKey.trim() || /[\u0000-\u001f\u007f]/.test(apiKey)) {
    problem(
      'apiKey',
      'must not start or end with whitespace or contain control characters (a trailing newline from a file or environment variable?)',
    );
    return undefined;
  }
  // It goes into a header and a URL path: keys are ASCII, and a lone surrogate cannot be encoded.
  if (hasLoneSurrogate(apiKey) || !/^[\x20-\x7e]+$/.test(apiKey)) {
    problem(
      'apiKey',
      'must contain only printable ASCII characters, as API keys do (a copy-paste artefact?)',
    );
    return undefined;
  }
  return apiKey;
}

function checkBaseUrls(
  overrides: unknown,
  redact: (text: string) => string,
  problem: Problem,
): Readonly<BaseUrls> | undefined {
  if (overrides === undefined) return DEFAULT_BASE_URLS;
  if (typeof overrides !== 'object' || overrides === null || Array.isArray(overrides)) {
    problem(
      'baseUrls',
      `must be an object of URLs by interface: { ${APIS.map((api) => `${api}?`).join(', ')} }`,
    );
    return undefined;
  }
  const urls = { ...DEFAULT_BASE_URLS };
  let ok = true;
  const unknown = unknownKeyIssues(overrides, {
    kind: 'interface',
    names: APIS,
    pathPrefix: 'baseUrls.',
    note: 'a chain is chosen per call, not here',
  });
  for (const issue of unknown) problem(issue.path, issue.message);
  if (unknown.length > 0) ok = false;
  for (const [api, value] of Object.entries(overrides)) {
    const path = `baseUrls.${api}`;
    if (!(APIS as string[]).includes(api) || value === undefined) continue;
    const url = checkUrl(value, redact);
    if (typeof url !== 'string') {
      problem(path, url.problem);
      ok = false;
      continue;
    }
    urls[api as Api] = url;
  }
  return ok ? Object.freeze(urls) : undefined;
}

/** An http(s) URL without its trailing slashes, or what is wrong with it. */
function checkUrl(value: unknown, redact: (text: string) => string): string | { problem: string } {
  if (typeof value !== 'string') return { problem: 'must be a URL string, e.g. "http://127.0.0.1:3000"' };
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return { problem: `is not a valid URL: ${redact(value)}` };
  }
  // `localhost:3000` parses as a URL with the scheme `localhost:`; only HTTP can be sent.
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return { problem: `must be an http:// or https:// URL: ${redact(value)}` };
  }
  // Not /\/+$/: that pattern is quadratic on a long run of slashes followed by anything else.
  let end = value.length;
  while (end > 0 && value[end - 1] === '/') end--;
  return value.slice(0, end);
}

function checkHooks(hooks: unknown, problem: Problem): void {
  if (hooks === undefined) return;
  if (typeof hooks !== 'object' || hooks === null || Array.isArray(hooks)) {
    problem('hooks', `must be an object of functions: { ${HOOK_NAMES.join(', ')} }`);
    return;
  }
  for (const issue of unknownKeyIssues(hooks, { kind: 'hook', names: HOOK_NAMES, pathPrefix: 'hooks.' })) {
    problem(issue.path, issue.message);
  }
  for (const [name, hook] of Object.entries(hooks)) {
    if (!(HOOK_NAMES as readonly string[]).includes(name)) continue;
    if (hook !== undefined && typeof hook !== 'function') {
      problem(`hooks.${name}`, 'must be a function');
    }
  }
}

function isHeaderText(value: unknown): value is string {
  return typeof value === 'string' && /^[\x20-\x7e]+$/.test(value) && value.trim() !== '';
}
