import { FAILS, type FieldCheck, type FieldCompiler, PASSES, type PlainLeaf, UNSURE } from './unchanged.js';

/**
 * Set at the first refusal to compile code from text, and kept: from then on every shape uses the
 * loop. Decided at use, not at load: workerd allows `new Function` while a Worker starts and
 * refuses it inside a request; a Content-Security-Policy without 'unsafe-eval' refuses it always.
 */
let refused = false;

/**
 * The field check of one object shape as code: each field read by its literal name is a property
 * access the engine caches per object shape, where `passesUnchanged`'s loop looks `record[key]` up
 * anew for every field (a 3,000-transaction webhook or a batch of blocks has ~100,000 of them; about
 * 5× faster here). Same verdicts as the loop, field for field. `undefined` once the runtime has
 * refused to compile code from text (Cloudflare Workers, a strict Content-Security-Policy): the
 * loop is used, for this shape and every later one.
 * The names are the schema's own keys, never a value from a response.
 */
export const compileFieldChecker: FieldCompiler = (
  keys,
  checks,
  absentPasses,
  stringChecks = [],
  plainLeaves = [],
) => {
  if (refused || keys.length === 0) return undefined;
  const setup: string[] = [];
  const fields = keys.map((key, i) => {
    const name = JSON.stringify(key);
    const absent = absentPasses[i] ? '' : `return ${UNSURE};`;
    const general = `x = c[${i}](v); if (x === ${FAILS}) return ${FAILS}; if (x === ${UNSURE}) verdict = ${UNSURE};`;
    const leaf = plainLeaves[i];
    // A plain field (a string, a BTC amount): its usual values pass without a call per layer.
    if (leaf)
      return `v = r[${name}];if (v === undefined && !(${name} in r)) {${absent}} else if (!(${passingTest(leaf)})) { ${general} }`;
    if (!stringChecks[i])
      return `v = r[${name}];if (v === undefined && !(${name} in r)) {${absent}} else { ${general} }`;
    // A field a marked check decides alone (a hex string): the place's last two strings passed,
    // and the check called right here, where the engine can inline it (see atOnePlace).
    setup.push(`const s${i} = s[${i}]; let l${i} = n, b${i} = n;`);
    return (
      `v = r[${name}];` +
      `if (v === undefined && !(${name} in r)) {${absent}}` +
      `else if (v !== l${i} && v !== b${i}) {` +
      `if (typeof v === 'string' && s${i}(v) === true) { b${i} = l${i}; l${i} = v; } else { ${general} } }`
    );
  });
  const source = `${setup.join('\n')}\nreturn function checkFields(r) { let verdict = ${PASSES}, v, x; ${fields.join('\n')} return verdict; };`;
  const make = compileOrRefuse(source);
  return make?.(checks, stringChecks, {}) as FieldCheck | undefined;
};

type MakeFieldCheck = (c: unknown, s: unknown, n: unknown) => FieldCheck;

/** The code, or `undefined` (and `refused` for good) where the runtime will not make it. */
function compileOrRefuse(source: string): MakeFieldCheck | undefined {
  try {
    return new Function('c', 's', 'n', source) as MakeFieldCheck;
  } catch (error) {
    // A SyntaxError is a fault in the source above, not a policy: let it show.
    if (error instanceof SyntaxError) throw error;
    // EvalError from V8 (workerd, CSP); other hosts that forbid it (a locked-down realm) may
    // throw another kind.
    refused = true;
    return undefined;
  }
}

const TYPE_TESTS = {
  string: "typeof v === 'string'",
  number: "(typeof v === 'number' && Number.isFinite(v))",
  boolean: "typeof v === 'boolean'",
};

/** An expression true for `v` exactly when the plain leaf passes it. */
function passingTest(leaf: PlainLeaf): string {
  const tests = leaf.types.map((type) => TYPE_TESTS[type]);
  if (leaf.undefined) tests.push('v === undefined');
  if (leaf.null) tests.push('v === null');
  return tests.join(' || ');
}
