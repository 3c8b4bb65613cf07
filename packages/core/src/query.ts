export type QueryValue = string | number | boolean | bigint | null | undefined | readonly (string | number)[];

/**
 * The query string (with its `?`), encoded exactly as `URLSearchParams` does, with spaces as
 * `%20`; undefined and null values are left out, lists repeat the name.
 */
export function encodeQuery(query: Record<string, QueryValue> | undefined): string {
  if (!query) return '';
  let text = '';
  for (const name in query) {
    const value = query[name];
    if (value === undefined || value === null || !Object.hasOwn(query, name)) continue;
    if (Array.isArray(value)) {
      for (const item of value) {
        text += `${text === '' ? '?' : '&'}${encodeQueryText(name)}=${encodeQueryText(String(item))}`;
      }
    } else text += `${text === '' ? '?' : '&'}${encodeQueryText(name)}=${encodeQueryText(String(value))}`;
  }
  return text;
}

/** encodeURIComponent leaves `!'()~` as they are; the form encoding URLSearchParams uses does not. */
const LEFT_BY_URI_COMPONENT = /[!'()~]/;
const LEFT_BY_URI_COMPONENT_ALL = /[!'()~]/g;

/** Characters both encodings leave as they are: such a text (a chain id, a number) is sent as it is. */
const LEFT_BY_BOTH = /^[\w.*-]*$/;

function encodeQueryText(text: string): string {
  if (LEFT_BY_BOTH.test(text)) return text;
  let encoded: string;
  try {
    encoded = encodeURIComponent(text);
  } catch {
    // A lone surrogate: URLSearchParams sends U+FFFD in its place.
    return new URLSearchParams([['', text]]).toString().slice(1).replace(/\+/g, '%20');
  }
  return LEFT_BY_URI_COMPONENT.test(encoded)
    ? encoded.replace(LEFT_BY_URI_COMPONENT_ALL, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    : encoded;
}
