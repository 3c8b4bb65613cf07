/** The text that stands in for a secret wherever it would otherwise appear. */
export const REDACTED = '***';

/**
 * A function that masks every occurrence of the given secrets (raw and URL-encoded) in a string.
 * Used on everything the SDK reports: error messages, paths, service messages, hook arguments.
 */
export function createRedactor(secrets: readonly string[]): (text: string) => string {
  const needles = [...new Set(secrets.flatMap((s) => [s, encodeURIComponent(s)]).filter((s) => s.length > 0))]
    // Longest first, so an encoded form that contains the raw one is masked whole.
    .sort((a, b) => b.length - a.length);
  return (text) => {
    let out = text;
    for (const needle of needles) out = out.split(needle).join(REDACTED);
    return out;
  };
}

/** Deeply masks secrets in any JSON-like value (strings inside objects and arrays included). */
export function redactValue(value: unknown, redact: (text: string) => string, depth = 0): unknown {
  if (typeof value === 'string') return redact(value);
  if (depth > 20 || typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map((item) => redactValue(item, redact, depth + 1));
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [redact(key), redactValue(item, redact, depth + 1)]),
  );
}
