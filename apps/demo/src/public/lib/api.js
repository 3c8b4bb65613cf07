// Calls to the demo server. Every failure arrives as a plain sentence (and the field at fault).

/** A refused or failed call: `message` is a sentence for the page. */
export class ApiProblem extends Error {
  /**
   * @param {string} message
   * @param {string | undefined} field
   * @param {number} status
   */
  constructor(message, field, status) {
    super(message);
    this.name = 'ApiProblem';
    this.field = field;
    this.status = status;
  }
}

/**
 * @template T
 * @typedef {{ data: T, requests: number, ms: number }} Answer
 */

/**
 * @template T
 * @param {string} path
 * @param {RequestInit} init
 * @returns {Promise<Answer<T>>}
 */
async function call(path, init) {
  const started = performance.now();
  let response;
  try {
    response = await fetch(path, { ...init, headers: { accept: 'application/json', ...init.headers } });
  } catch {
    throw new ApiProblem('The demo server cannot be reached. Is `npm run demo` still running?', undefined, 0);
  }
  /** @type {any} */
  let body;
  try {
    body = await response.json();
  } catch {
    throw new ApiProblem(
      `The demo server answered HTTP ${response.status} without a readable body.`,
      undefined,
      response.status,
    );
  }
  if (!response.ok) {
    throw new ApiProblem(String(body?.message ?? `HTTP ${response.status}`), body?.field, response.status);
  }
  return {
    data: /** @type {T} */ (body),
    requests: Number(response.headers.get('x-service-requests') ?? 0),
    ms: Math.round(performance.now() - started),
  };
}

/**
 * @template T
 * @param {string} path
 * @param {Record<string, string | number | undefined>} [params]
 * @returns {Promise<Answer<T>>}
 */
export function getJson(path, params = {}) {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value !== undefined && value !== '') query.set(name, String(value));
  }
  const search = query.toString();
  return call(search ? `${path}?${search}` : path, { method: 'GET' });
}

/**
 * @template T
 * @param {string} path
 * @param {unknown} body
 * @returns {Promise<Answer<T>>}
 */
export function postJson(path, body) {
  return call(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

/**
 * "1 request to the service · 12 ms".
 * @param {{ requests: number, ms: number }} answer
 */
export function describeCost({ requests, ms }) {
  const what = requests === 1 ? '1 request' : `${requests} requests`;
  return `${what} to the service · ${ms} ms`;
}
