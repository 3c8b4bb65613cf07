/**
 * A list parameter as users give it: an array (from an expression) or text with one value per
 * line or separated by commas. Values are trimmed; empty ones are dropped.
 */
export function listParameter(value: unknown): string[] {
  const values = Array.isArray(value) ? value : typeof value === 'string' ? value.split(/[\n\r,]+/) : [];
  return values
    .filter((entry) => entry !== null && entry !== undefined)
    .map((entry) => String(entry).trim())
    .filter((entry) => entry !== '');
}
