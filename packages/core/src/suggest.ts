/**
 * "Did you mean …?" for a mistyped name: an option, a field, a chain. Bounded work whatever the
 * input: names longer than {@link MAX_NAME_LENGTH} get no suggestion.
 */

const MAX_NAME_LENGTH = 64;

/**
 * The candidate closest to `input` (letter case ignored), or undefined when none is close: the
 * same name in another case, a typo or two, or one name a prefix of the other (`baseUrl`).
 */
export function nearest(input: string, candidates: readonly string[]): string | undefined {
  const wanted = input.toLowerCase();
  if (wanted === '' || wanted.length > MAX_NAME_LENGTH) return undefined;
  const ranked = candidates
    .map((name) => ({ name, lower: name.toLowerCase() }))
    .map((c) => ({ ...c, distance: editDistance(wanted, c.lower) }))
    .sort((a, b) => a.distance - b.distance);
  const closest = ranked[0];
  if (closest && closest.distance <= Math.max(1, Math.floor(wanted.length / 3))) return closest.name;
  const prefixed = ranked.find(
    (c) =>
      Math.min(wanted.length, c.lower.length) >= 3 &&
      (wanted.startsWith(c.lower) || c.lower.startsWith(wanted)),
  );
  return prefixed?.name;
}

/** ` (did you mean "x"?)`, or '' when nothing is close: for the end of an error message. */
export function didYouMean(input: string, candidates: readonly string[]): string {
  const match = nearest(input, candidates);
  return match === undefined ? '' : ` (did you mean "${match}"?)`;
}

/**
 * Edit distance counting a swap of two neighbouring letters as one edit (optimal string
 * alignment), the most common typo (`chian`); both strings are at most MAX_NAME_LENGTH long here.
 */
function editDistance(a: string, b: string): number {
  let beforePrevious: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      let distance = Math.min(
        previous[j]! + 1,
        current[j - 1]! + 1,
        previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        distance = Math.min(distance, beforePrevious[j - 2]! + 1);
      }
      current.push(distance);
    }
    beforePrevious = previous;
    previous = current;
  }
  return previous[b.length]!;
}

/** A value shown in an error message, cut to a readable length (inputs may be 40,000 characters). */
export function shown(value: unknown, max = 40): string {
  let text: string;
  try {
    text = typeof value === 'string' ? value : String(value);
  } catch {
    text = `[${typeof value}]`; // e.g. an object without a prototype, which has no toString
  }
  const cut = text.length > max ? `${text.slice(0, max)}…` : text;
  return JSON.stringify(cut);
}
