/**
 * Whether a value passes a zod schema *unchanged*: zod would accept it and give back an equal
 * value (a loose object keeps its unknown fields, nothing is transformed or defaulted). Then the
 * value itself can be used, and zod's copy — every object and array of a 3,000-transaction
 * webhook or of a batch of blocks rebuilt — is never made. Any other case, including every
 * failure, is left to zod, so results and error messages are exactly zod's.
 *
 * The check is compiled once per schema from zod's own definition. It understands the kinds
 * that make up response schemas (objects, arrays, unions, optional and nullable, strings,
 * numbers, booleans, custom checks); for anything else it asks zod about that one value, or says
 * "not sure". It never says "passes" where zod would fail or change the value: a property test
 * holds it to zod (unchanged.test.ts).
 */
import type * as z from 'zod/v4/core';
import { util } from 'zod/v4/core';
import { safeParse } from '../zod.js';

/** zod would reject the value. */
export const FAILS = 0;
/** zod would accept it and return an equal value. */
export const PASSES = 1;
/** Not known without zod. */
export const UNSURE = 2;
export type Verdict = typeof FAILS | typeof PASSES | typeof UNSURE;
export type Check = (value: unknown) => Verdict;

interface Internals {
  def: Def;
  optin?: 'optional' | 'defaulted';
  optout?: 'optional';
  traits?: Set<string>;
}

interface Def {
  type: string;
  /** Set on a schema that is a check itself: `z.custom`, and the formats (`z.int()`, `z.email()`). */
  check?: string;
  checks?: unknown[];
  coerce?: boolean;
  shape?: Record<string, z.$ZodType>;
  catchall?: z.$ZodType;
  innerType?: z.$ZodType;
  element?: z.$ZodType;
  options?: z.$ZodType[];
  inclusive?: boolean;
  fn?: (value: unknown) => unknown;
  values?: unknown[];
  entries?: Record<string, unknown>;
  getter?: () => z.$ZodType;
}

const internalsOf = (schema: z.$ZodType) => (schema as unknown as { _zod: Internals })._zod;

/**
 * The checks of one way of checking (field checks compiled to code or in a loop), each compiled
 * once per schema and kept while the schema lives.
 */
export interface UnchangedChecks {
  /** True when `schema` would accept `value` and return it as it is (see the module comment). */
  passesUnchanged(schema: z.$ZodType, value: unknown): boolean;
  /** The compiled check behind `passesUnchanged`, for a caller that runs it on every call. */
  checkOf(schema: z.$ZodType): Check;
}

/**
 * The checks with the object field checks made by `compileFields` (see `FieldCompiler`), or in a
 * loop without it: the operation layer alone, which an n8n node bundles, never makes code from
 * text (n8n's scanner refuses the Function constructor).
 */
export function createUnchangedChecks(compileFields?: FieldCompiler): UnchangedChecks {
  const compiled = new WeakMap<object, Check>();
  const compiler: Compiler = {
    compileFields,
    checkOf(schema) {
      const known = compiled.get(schema);
      if (known) return known;
      // A recursive schema meets itself while being compiled: it calls through to the finished check.
      let finished: Check | undefined;
      compiled.set(schema, (value) => finished!(value));
      finished = compile(schema, compiler);
      compiled.set(schema, finished);
      return finished;
    },
  };
  return {
    passesUnchanged: (schema, value) => compiler.checkOf(schema)(value) === PASSES,
    checkOf: compiler.checkOf,
  };
}

interface Compiler {
  checkOf(schema: z.$ZodType): Check;
  compileFields: FieldCompiler | undefined;
}

let walk: UnchangedChecks | undefined;

/** `passesUnchanged` with the field checks in a loop: no code made from text. */
export function passesUnchanged(schema: z.$ZodType, value: unknown): boolean {
  walk ??= createUnchangedChecks();
  return walk.passesUnchanged(schema, value);
}

/**
 * A number or string format made a schema (`z.int()`, `z.email()`, `z.iso.datetime()`): its
 * check is on its own def, not in `checks`, so it is no plain number or string. Only zod knows it.
 */
const isFormat = (def: Def): boolean => def.check !== undefined && def.type !== 'custom';

/** zod takes a value of this def's type as it is: no coercion, no format, no refinement. */
const isBare = (def: Def): boolean => !def.coerce && !isFormat(def) && (def.checks?.length ?? 0) === 0;

function compile(schema: z.$ZodType, compiler: Compiler): Check {
  const { def } = internalsOf(schema);
  // Refinements and transforms of the value itself: only zod knows, but for a string's patterns
  // and a number's bounds.
  if (def.coerce) return askZod(schema);
  const checked = isFormat(def) || (def.checks?.length ?? 0) > 0;
  if (checked && def.type === 'number') return numberLimitsOf(def) ?? askZod(schema);
  if (isFormat(def)) return askZod(schema);
  if (checked) return patternsOf(def) ?? askZod(schema);
  const shortcut = optionalLeaf(def);
  if (shortcut) return shortcut;
  switch (def.type) {
    case 'string':
      return (value) => (typeof value === 'string' ? PASSES : FAILS);
    case 'number':
      return (value) => (typeof value === 'number' && Number.isFinite(value) ? PASSES : FAILS);
    case 'boolean':
      return (value) => (typeof value === 'boolean' ? PASSES : FAILS);
    case 'bigint':
      return (value) => (typeof value === 'bigint' ? PASSES : FAILS);
    case 'null':
      return (value) => (value === null ? PASSES : FAILS);
    case 'unknown':
    case 'any':
      return () => PASSES;
    case 'custom': {
      const fn = def.fn;
      if (typeof fn !== 'function') return askZod(schema);
      return (value) => {
        const result = fn(value);
        if (typeof (result as Promise<unknown> | undefined)?.then === 'function') return UNSURE;
        return result ? PASSES : FAILS;
      };
    }
    case 'optional': {
      const inner = compiler.checkOf(def.innerType!);
      // An inner default would fill in undefined.
      if (internalsOf(def.innerType!).optin === 'defaulted')
        return (value) => (value === undefined ? UNSURE : inner(value));
      return (value) => (value === undefined ? PASSES : inner(value));
    }
    case 'nullable': {
      const inner = compiler.checkOf(def.innerType!);
      return (value) => (value === null ? PASSES : inner(value));
    }
    case 'array':
      return compileArray(atOnePlace(def.element!, compiler));
    case 'object':
      return compileObject(def, compiler);
    case 'union':
      return def.inclusive === false ? askZod(schema) : compileUnion(def.options!.map(compiler.checkOf));
    case 'lazy':
      return (value) => compiler.checkOf(def.getter!())(value);
    default:
      return askZod(schema);
  }
}

const stringChecks = new WeakSet<object>();

/**
 * Declares a custom check (the function given to `z.custom`) a function of the string it is
 * given alone: no state, the same answer for equal strings. A field (or an array's elements)
 * checked by it alone, with optional and nullable around it, then passes a string equal to one
 * of the last two it passed without calling it again. Returns the function.
 */
export function markStringCheck<F extends (value: unknown) => unknown>(check: F): F {
  stringChecks.add(check);
  return check;
}

/** Each place's last strings start as an object of its own, which no value checked can be. */
const NOTHING_YET = Object.freeze({});

/**
 * The check of one place of a schema: an object's field, an array's elements. For a check that
 * `markStringCheck` declared a function of the string alone, it remembers the last two strings
 * that passed there: a block's hash in each of its transactions, receipts and logs, the empty
 * bloom of a plain transfer between the blooms of contract calls, an address repeated, are read
 * once (a third of the time of checking 300 blocks with their receipts went to such repeats).
 */
function atOnePlace(schema: z.$ZodType, compiler: Compiler): Check {
  const check = compiler.checkOf(schema);
  const fn = stringCheckAlone(schema);
  if (!fn) return check;
  let last: unknown = NOTHING_YET;
  let before: unknown = NOTHING_YET;
  // A string the check returns `true` for passes (it is the check alone, and zod takes any truthy
  // answer): the check is called here directly, not through the layers around it. Anything
  // else (another answer, another type) is the full check's to decide.
  return (value) => {
    if (value === last || value === before) return PASSES;
    if (typeof value === 'string' && fn(value) === true) {
      before = last;
      last = value;
      return PASSES;
    }
    return check(value);
  };
}

/** The marked custom check (see `markStringCheck`) that alone decides a string's verdict under `schema`, if one does. */
function stringCheckAlone(schema: z.$ZodType): ((value: unknown) => unknown) | undefined {
  const def = emptiesAround(internalsOf(schema).def)?.inner;
  return def?.type === 'custom' && isBare(def) && typeof def.fn === 'function' && stringChecks.has(def.fn)
    ? def.fn
    : undefined;
}

/**
 * A string whose every check is a pattern (`z.string().regex(…)`: an address, a hash) is tested
 * with the patterns themselves, as zod tests them; any other check is left to zod.
 */
function patternsOf(def: Def): Check | undefined {
  if (def.type !== 'string') return undefined;
  const patterns: RegExp[] = [];
  for (const check of def.checks!) {
    const checkDef = checkDefOf(check) as PatternCheckDef | undefined;
    if (
      checkDef?.check !== 'string_format' ||
      checkDef.format !== 'regex' ||
      !(checkDef.pattern instanceof RegExp) ||
      checkDef.when !== undefined
    )
      return undefined;
    patterns.push(checkDef.pattern);
  }
  return (value) => {
    if (typeof value !== 'string') return FAILS;
    for (const pattern of patterns) {
      pattern.lastIndex = 0;
      if (!pattern.test(value)) return FAILS;
    }
    return PASSES;
  };
}

/**
 * A number whose every check is a bound or an integer format (`z.number().int().min(0)`, a
 * delivery's `retries`; `z.int32()`) is tested as zod tests it, not handed to zod for each value;
 * any other check (`multipleOf`, a refinement) is left to zod.
 */
function numberLimitsOf(def: Def): Check | undefined {
  // A format made a schema (`z.int()`) is its own first check, as zod runs it.
  const checkDefs = [...(isFormat(def) ? [def] : []), ...(def.checks ?? []).map(checkDefOf)];
  const tests: ((value: number) => boolean)[] = [];
  for (const checkDef of checkDefs) {
    const test = checkDef === undefined ? undefined : numberTestOf(checkDef as NumberCheckDef);
    if (!test) return undefined;
    tests.push(test);
  }
  return (value) => {
    // zod's number refuses NaN and the infinities before any check.
    if (typeof value !== 'number' || !Number.isFinite(value)) return FAILS;
    for (const test of tests) if (!test(value)) return FAILS;
    return PASSES;
  };
}

interface NumberCheckDef {
  check?: string;
  format?: string;
  value?: unknown;
  inclusive?: boolean;
  when?: unknown;
}

function numberTestOf(check: NumberCheckDef): ((value: number) => boolean) | undefined {
  if (check.when !== undefined) return undefined;
  const bound = check.value;
  switch (check.check) {
    case 'number_format': {
      const format = check.format ?? 'float64';
      // zod's own table of the formats' ranges; the `int` ones are safe integers too.
      const range = (util.NUMBER_FORMAT_RANGES as Partial<Record<string, [number, number]>>)[format];
      if (!range) return undefined;
      const [min, max] = range;
      return format.includes('int')
        ? (value) => Number.isSafeInteger(value) && value >= min && value <= max
        : (value) => value >= min && value <= max;
    }
    case 'greater_than':
      if (typeof bound !== 'number') return undefined;
      return check.inclusive ? (value) => value >= bound : (value) => value > bound;
    case 'less_than':
      if (typeof bound !== 'number') return undefined;
      return check.inclusive ? (value) => value <= bound : (value) => value < bound;
    default:
      return undefined;
  }
}

/** The definition of one of a schema's `checks` (a check object, or a format schema used as one). */
const checkDefOf = (check: unknown): unknown => (check as { _zod?: { def?: unknown } })._zod?.def;

interface PatternCheckDef {
  check?: string;
  format?: string;
  pattern?: unknown;
  when?: unknown;
}

type PlainType = 'string' | 'number' | 'boolean';
const PLAIN_TYPES: readonly string[] = ['string', 'number', 'boolean'] satisfies PlainType[];

/**
 * A plain string, number or boolean, optional, nullable or a union of such (a BTC amount is
 * `z.union([z.number(), z.string()]).nullish()`): the values that pass it as they are, which
 * the compiled field checker tests for in line rather than through one call per layer.
 */
export interface PlainLeaf {
  types: PlainType[];
  undefined: boolean;
  null: boolean;
}

/** The plain leaf `schema` is, or `undefined`: exactly the values its compiled check passes. */
function plainLeafOf(schema: z.$ZodType): PlainLeaf | undefined {
  const layers = emptiesAround(internalsOf(schema).def);
  if (!layers) return undefined;
  const { inner } = layers;
  if (!isBare(inner)) return undefined;
  const leaf = PLAIN_TYPES.includes(inner.type)
    ? { types: [inner.type as PlainType], undefined: false, null: false }
    : inner.type === 'union' && inner.inclusive !== false
      ? unionOfLeaves(inner.options!.map((option) => plainLeafOf(option)))
      : undefined;
  return leaf && { ...leaf, undefined: leaf.undefined || layers.undefined, null: leaf.null || layers.null };
}

/** A union passes what any of its options passes (each says only "passes" or "fails"). */
function unionOfLeaves(options: (PlainLeaf | undefined)[]): PlainLeaf | undefined {
  if (options.length === 0 || options.includes(undefined)) return undefined;
  const leaves = options as PlainLeaf[];
  return {
    types: [...new Set(leaves.flatMap((leaf) => leaf.types))],
    undefined: leaves.some((leaf) => leaf.undefined),
    null: leaves.some((leaf) => leaf.null),
  };
}

/**
 * The `optional` and `nullable` layers around a schema: the def inside them, and whether they let
 * `undefined` or `null` through as it is. `undefined` where a layer could change or refuse a value
 * (a default inside an optional, a refinement on any layer): only zod knows then.
 */
function emptiesAround(def: Def): { inner: Def; undefined: boolean; null: boolean } | undefined {
  let allowUndefined = false;
  let allowNull = false;
  let inner = def;
  while (inner.type === 'optional' || inner.type === 'nullable') {
    if (!isBare(inner)) return undefined;
    const innerSchema = inner.innerType!;
    if (inner.type === 'optional') {
      if (internalsOf(innerSchema).optin === 'defaulted') return undefined;
      allowUndefined = true;
    } else allowNull = true;
    inner = internalsOf(innerSchema).def;
  }
  return { inner, undefined: allowUndefined, null: allowNull };
}

/**
 * `optional`, `nullable` or both around a string, number, boolean or custom check (most fields
 * of an answer: `hex.nullable()`, `z.string().nullish()`) as one function, not one per layer.
 */
function optionalLeaf(def: Def): Check | undefined {
  const layers = emptiesAround(def);
  if (!layers || !(layers.undefined || layers.null)) return undefined;
  const { inner, undefined: allowUndefined, null: allowNull } = layers;
  if (!isBare(inner)) return undefined;
  const empty = (value: unknown) => (value === undefined ? allowUndefined : value === null && allowNull);
  switch (inner.type) {
    case 'string':
      return (value) => (typeof value === 'string' || empty(value) ? PASSES : FAILS);
    case 'number':
      return (value) =>
        (typeof value === 'number' && Number.isFinite(value)) || empty(value) ? PASSES : FAILS;
    case 'boolean':
      return (value) => (typeof value === 'boolean' || empty(value) ? PASSES : FAILS);
    case 'custom': {
      const fn = inner.fn;
      if (typeof fn !== 'function') return undefined;
      return (value) => {
        if (empty(value)) return PASSES;
        const result = fn(value);
        if (typeof (result as Promise<unknown> | undefined)?.then === 'function') return UNSURE;
        return result ? PASSES : FAILS;
      };
    }
    default:
      return undefined;
  }
}

function compileArray(element: Check): Check {
  return (value) => {
    if (!Array.isArray(value)) return FAILS;
    for (let i = 0; i < value.length; i++) {
      const verdict = element(value[i]);
      if (verdict !== PASSES) return verdict;
    }
    return PASSES;
  };
}

/** The first option zod accepts decides: an option can only be skipped when it surely fails. */
function compileUnion(options: Check[]): Check {
  return (value) => {
    for (const option of options) {
      const verdict = option(value);
      if (verdict !== FAILS) return verdict;
    }
    return FAILS;
  };
}

function compileObject(def: Def, compiler: Compiler): Check {
  const shape = Object.entries(def.shape ?? {});
  // Parallel arrays and an indexed loop: this runs for every object of a large answer.
  const keys = shape.map(([key]) => key);
  const checks = shape.map(([, field]) => atOnePlace(field, compiler));
  // An absent key stays absent only for a plain optional field; zod decides the rest.
  const absentPasses = shape.map(([, field]) => {
    const { optin, optout } = internalsOf(field);
    return optin === 'optional' && optout === 'optional';
  });
  const known = new Set(keys);
  const hasProtoKey = known.has('__proto__');
  const catchallType = def.catchall ? internalsOf(def.catchall).def.type : undefined;
  // Unknown keys: kept as they are (loose), an error (strict), dropped (plain), or checked.
  const unknownKeys: 'keep' | 'fail' | 'drop' | Check =
    catchallType === 'unknown' || catchallType === 'any'
      ? 'keep'
      : catchallType === 'never'
        ? 'fail'
        : def.catchall
          ? compiler.checkOf(def.catchall)
          : 'drop';
  const strings = shape.map(([, field]) => stringCheckAlone(field));
  const leaves = shape.map(([, field]) => plainLeafOf(field));
  const checkFields =
    compiler.compileFields?.(keys, checks, absentPasses, strings, leaves) ??
    loopOverFields(keys, checks, absentPasses);
  return (value) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return FAILS;
    const record = value as Record<string, unknown>;
    // zod never copies a `__proto__` key (JSON.parse makes one an own property).
    if (hasProtoKey || Object.hasOwn(record, '__proto__')) return UNSURE;
    let verdict = checkFields(record);
    if (verdict === FAILS || unknownKeys === 'keep') return verdict;
    for (const key in record) {
      if (known.has(key)) continue;
      if (unknownKeys === 'fail') return FAILS;
      if (unknownKeys === 'drop' || !Object.hasOwn(record, key)) return UNSURE;
      const result = unknownKeys(record[key]);
      if (result === FAILS) return FAILS;
      if (result === UNSURE) verdict = UNSURE;
    }
    return verdict;
  };
}

/**
 * zod itself, for a value that is not an object: whatever it makes of one is a primitive, so
 * "passes unchanged" is a plain comparison. An object is left to the caller's full parse.
 */
/** The known fields of an object, one after the other (where code cannot be compiled). */
export function loopOverFields(keys: string[], checks: Check[], absentPasses: boolean[]): FieldCheck {
  return (record) => {
    let verdict: Verdict = PASSES;
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i]!;
      const field = record[key];
      // Present the way zod sees it: `in`, inherited keys included.
      if (field === undefined && !(key in record)) {
        if (!absentPasses[i]) return UNSURE;
        continue;
      }
      const result = checks[i]!(field);
      if (result === FAILS) return FAILS;
      if (result === UNSURE) verdict = UNSURE;
    }
    return verdict;
  };
}

export type FieldCheck = (record: Record<string, unknown>) => Verdict;
/**
 * `stringChecks[i]`, where given, is the marked check (`markStringCheck`) that alone decides a
 * string at field `i`: a string it returns `true` for passes there, as `checks[i]` would say.
 * `plainLeaves[i]`, where given, says which values pass at field `i` (`plainLeafOf`): those pass
 * there without calling `checks[i]`, which decides every other value.
 */
export type FieldCompiler = (
  keys: string[],
  checks: Check[],
  absentPasses: boolean[],
  stringChecks?: (((value: unknown) => unknown) | undefined)[],
  plainLeaves?: (PlainLeaf | undefined)[],
) => FieldCheck | undefined;

function askZod(schema: z.$ZodType): Check {
  return (value) => {
    if (typeof value === 'object' && value !== null) return UNSURE;
    const result = safeParse(schema, value);
    if (!result.success) return FAILS;
    return Object.is(result.data, value) ? PASSES : UNSURE;
  };
}
