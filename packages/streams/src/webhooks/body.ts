/** What a webhook body may arrive as: already parsed, or the raw text/bytes of the request. */
export type WebhookBody = unknown;

const decoder = new TextDecoder('utf-8');

/** The raw text of a body given as a string or bytes; `undefined` when it is already parsed. */
export function rawTextOf(body: unknown): string | undefined {
  if (typeof body === 'string') return body;
  if (body instanceof Uint8Array) return decoder.decode(body);
  if (body instanceof ArrayBuffer) return decoder.decode(new Uint8Array(body));
  return undefined;
}

/** Whether a raw body carries nothing (the verification POST may be sent empty). */
export function isBlankText(text: string): boolean {
  const first = text.charCodeAt(0);
  // A JSON object or array (every delivery) is not blank: no need to trim a copy of it.
  if (first === 0x7b || first === 0x5b) return false;
  return text.trim() === '';
}

/** The parsed value of a body; raw text is parsed as JSON (throws `SyntaxError` on malformed JSON). */
export function parsedBodyOf(body: unknown): unknown {
  const text = rawTextOf(body);
  return text === undefined ? body : JSON.parse(text);
}
