/**
 * Answers sized for a model's context. Agent hosts cap what a tool may return (Claude Code: 25,000
 * tokens by default); an answer over the cap is refused or cut by the host without a word. So an
 * answer is shaped here: concise by default (long texts such as logs blooms, proofs and call data
 * left out, and named), and, when it would still exceed the budget, its largest lists are
 * shortened until it fits, and the answer says what was cut and how to ask for the rest.
 *
 * Tokens are estimated as bytes ÷ 4 (`BYTES_PER_TOKEN`). Hex and base64 take more tokens per byte
 * than prose, hence the default budget's margin below the 25,000 cap.
 */

/** The estimate used everywhere in this package: one token per 4 bytes of JSON. */
export const BYTES_PER_TOKEN = 4;

/** The default answer budget, in estimated tokens: 60% of Claude Code's 25,000-token cap. */
export const DEFAULT_ANSWER_TOKENS = 15_000;

/** The smallest budget accepted: below it, no answer with its notes would fit. */
export const MIN_ANSWER_TOKENS = 500;

/** A text longer than this (a logs bloom, a Merkle proof node, call data) is left out of a concise answer. */
export const LONG_TEXT = 256;

export type Detail = 'concise' | 'full';
export const DETAILS: readonly Detail[] = ['concise', 'full'];

/** A list shortened to fit the budget. */
export interface Cut {
  /** Where, e.g. `result.transactions`. */
  path: string;
  shown: number;
  total: number;
}

export interface Shaped {
  result: unknown;
  /** Where a long text (or a list of them) was left out. */
  omitted: string[];
  cut: Cut[];
}

export function estimateTokens(value: unknown): number {
  return Math.ceil(byteLength(JSON.stringify(value) ?? '') / BYTES_PER_TOKEN);
}

export function byteLength(text: string): number {
  return new TextEncoder().encode(text).length;
}

/** The concise shape: every text over `LONG_TEXT` characters, and every list holding one, left out. */
export function concise(value: unknown): Shaped {
  const omitted: string[] = [];
  const result = withoutLongTexts(value, 'result', omitted, 0);
  return { result, omitted, cut: [] };
}

function isLong(value: unknown): boolean {
  return typeof value === 'string' && value.length > LONG_TEXT;
}

function withoutLongTexts(value: unknown, path: string, omitted: string[], depth: number): unknown {
  if (depth > 64 || typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    return value.map((item, index) => withoutLongTexts(item, `${path}[${index}]`, omitted, depth + 1));
  }
  const kept: Record<string, unknown> = {};
  for (const [key, entry] of Object.entries(value)) {
    const at = `${path}.${key}`;
    if (isLong(entry) || (Array.isArray(entry) && entry.some(isLong))) {
      omitted.push(at);
      continue;
    }
    kept[key] = withoutLongTexts(entry, at, omitted, depth + 1);
  }
  return kept;
}

/**
 * Shortens `shaped.result` until `measure(shaped)` is within `maxBytes`: the largest list first,
 * to the share of it that fits; a single text too large on its own is left out. Never cuts
 * silently: every change is in `cut` or `omitted`.
 */
export function fitToBudget(shaped: Shaped, maxBytes: number, measure: (shaped: Shaped) => number): Shaped {
  for (let round = 0; round < 200; round++) {
    const size = measure(shaped);
    if (size <= maxBytes) return shaped;
    const excess = size - maxBytes;
    const largest = largestNode(shaped.result);
    if (!largest || largest.path.length === 0) {
      return { result: null, omitted: [...shaped.omitted, 'result'], cut: shaped.cut };
    }
    if (Array.isArray(largest.value)) {
      const list = largest.value;
      const keep = Math.min(
        list.length - 1,
        Math.floor((list.length * (largest.bytes - excess)) / largest.bytes),
      );
      const shortened = list.slice(0, Math.max(0, keep));
      const path = pathText(largest.path);
      const earlier = shaped.cut.find((cut) => cut.path === path);
      const cut = earlier
        ? shaped.cut.map((entry) => (entry === earlier ? { ...entry, shown: shortened.length } : entry))
        : [...shaped.cut, { path, shown: shortened.length, total: list.length }];
      shaped = { ...shaped, result: replaceAt(shaped.result, largest.path, shortened), cut };
    } else {
      shaped = {
        ...shaped,
        result: replaceAt(shaped.result, largest.path, undefined),
        omitted: [...shaped.omitted, pathText(largest.path)],
      };
    }
  }
  return { result: null, omitted: [...shaped.omitted, 'result'], cut: shaped.cut };
}

type Path = (string | number)[];

/** The list with the most bytes (its JSON), or, when there is no list left to shorten, the largest text. */
function largestNode(root: unknown): { path: Path; value: unknown; bytes: number } | undefined {
  let list: { path: Path; value: unknown; bytes: number } | undefined;
  let text: { path: Path; value: unknown; bytes: number } | undefined;
  const visit = (value: unknown, path: Path, depth: number): number => {
    if (typeof value === 'string') {
      const bytes = byteLength(value) + 2;
      if (path.length > 0 && (!text || bytes > text.bytes)) text = { path, value, bytes };
      return bytes;
    }
    if (typeof value !== 'object' || value === null || depth > 64)
      return (JSON.stringify(value) ?? '').length;
    let bytes = 2;
    if (Array.isArray(value)) {
      value.forEach((item, index) => {
        bytes += visit(item, [...path, index], depth + 1) + 1;
      });
      if (value.length > 0 && (!list || bytes > list.bytes)) list = { path, value, bytes };
    } else {
      for (const [key, item] of Object.entries(value))
        bytes += visit(item, [...path, key], depth + 1) + key.length + 4;
    }
    return bytes;
  };
  visit(root, [], 0);
  // A list is shortened before a text is dropped, unless the text alone outweighs it.
  if (list && (!text || list.bytes >= text.bytes / 2)) return list;
  return text ?? list;
}

function replaceAt(root: unknown, path: Path, replacement: unknown): unknown {
  if (path.length === 0) return replacement;
  const [head, ...rest] = path;
  if (Array.isArray(root)) {
    const copy = [...root];
    if (rest.length === 0 && replacement === undefined) copy.splice(head as number, 1);
    else copy[head as number] = replaceAt(copy[head as number], rest, replacement);
    return copy;
  }
  const copy = { ...(root as Record<string, unknown>) };
  if (rest.length === 0 && replacement === undefined) delete copy[head as string];
  else copy[head as string] = replaceAt(copy[head as string], rest, replacement);
  return copy;
}

function pathText(path: Path): string {
  return `result${path.map((part) => (typeof part === 'number' ? `[${part}]` : `.${part}`)).join('')}`;
}
