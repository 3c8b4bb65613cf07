/**
 * How an endpoint presents itself: its resource and action, a display name, what each input field
 * means, how a list pages or chunks, and an example. The n8n node, the README tables and the
 * OpenAPI document are built from this, so no consumer writes an endpoint's description again.
 *
 * Field documentation lives in the schemas (`.meta({ description })`), so it exists at run time
 * and in `z.toJSONSchema`; this module reads it back out. Checking an endpoint at definition time
 * reads the schema itself, not its JSON Schema: a program that only calls endpoints does not carry
 * zod's JSON Schema code.
 */
import type * as z from 'zod/v4/core';
import { globalRegistry, toJSONSchema } from 'zod/v4/core';
import type { CallOptions } from './client-types.js';

/** One call with its answer, for docs, tests (each example round-trips) and tool prompts. */
export interface Example {
  /** What the example shows, when there are several. */
  summary?: string;
  input: Record<string, unknown>;
  response: unknown;
}

/** How a list endpoint pages: which input field asks for the next page, where the items are. */
export type Paging =
  | {
      style: 'cursor';
      /** Input field that takes the cursor of the previous page. */
      cursorField: string;
      /** Response property holding the next page's cursor (absent or null on the last page). */
      nextCursor: string;
      /** Response property holding the items. */
      items: string;
      /** Input field for the page size. */
      limitField?: string;
    }
  | {
      style: 'page';
      /** Input field that takes the page number. */
      pageField: string;
      /** Response property holding the items. */
      items: string;
      limitField?: string;
      /** Response property holding the number of the page answered, when the service reports it. */
      reportedPage?: string;
      /** Response property holding the page size the service used, when it reports it. */
      reportedPageSize?: string;
    };

/** How a call splits a long list input into several requests. */
export interface Chunking {
  /** The list input field. */
  field: string;
  /** The most items one request carries. */
  size: number;
}

/** What every endpoint — a REST operation or a JSON-RPC method — says about itself. */
export interface Presentation {
  /** The SDK function's (or RPC method's) name, e.g. `getEvmTokenPrice`. */
  id: string;
  /** What the endpoint acts on, e.g. `tokenPrice`, `bitcoinStream`, `rpc`. */
  resource: string;
  /** What it does to the resource, e.g. `getEvm`, `create`; unique within the resource. */
  action: string;
  /** A short title, e.g. `Get EVM Token Price`. */
  displayName: string;
  /** One sentence for docs and UIs. */
  summary: string;
  /** Optional input fields that most callers never need; UIs tuck them away. */
  advanced?: readonly string[];
  paging?: Paging;
  chunking?: Chunking;
  /**
   * Changes nothing at the service, so a host may run it freely (side by side, in a read-only
   * mode, without asking). Left out: true for an HTTP GET and for a JSON-RPC method, false for a
   * REST operation of any other HTTP method. A POST that only reads (its input is too long
   * for a query string) says `readOnly: true`; a JSON-RPC method that sends something says
   * `readOnly: false`. `describeAction` gives it with the default applied: every host (the n8n
   * node, the MCP server) reads it there.
   */
  readOnly?: boolean;
  /** At least one: the first is the one docs show. */
  examples: readonly [Example, ...Example[]];
}

/** How a UI asks for a field. `stringList` takes several values (an array, or comma/newline separated text). */
export type FieldType = 'string' | 'number' | 'boolean' | 'options' | 'stringList' | 'json';

export interface FieldOption {
  name: string;
  value: string | number;
}

export type JsonSchema = Record<string, unknown>;

/** One input field, described for a UI, a doc table or an agent tool. */
export interface FieldInfo {
  /** The SDK's input name, e.g. `toBlock`. */
  name: string;
  /** A label, e.g. `To Block`. */
  displayName: string;
  description: string;
  type: FieldType;
  required: boolean;
  /** The value used when the field is left out, when the SDK has one. */
  default?: unknown;
  placeholder?: string;
  /** The values to pick from (`options`), or the suggested values of an open field (a chain). */
  options?: readonly FieldOption[];
  /** Listed in the endpoint's `advanced`. */
  advanced: boolean;
  /** The field's input JSON Schema. */
  schema: JsonSchema;
}

/** Metadata keys Blockwire reads from `.meta()`, beside JSON Schema's own (`title`, `description`, `examples`). */
export interface FieldMeta {
  title?: string;
  description: string;
  placeholder?: string;
  examples?: unknown[];
  /** Suggested values of a field that also takes others (e.g. chains by name, which also take ids). */
  options?: readonly FieldOption[];
}

/**
 * The input-side JSON Schema of a schema. bigint inputs (block numbers) read as integers; a custom
 * check with no JSON form reads as "any value", which the field's description then explains.
 */
export function inputJsonSchema(schema: z.$ZodType): JsonSchema {
  return toJSONSchema(schema, {
    io: 'input',
    unrepresentable: 'any',
    override(ctx) {
      const def = (ctx.zodSchema as { _zod: { def: { type: string } } })._zod.def;
      if (def.type === 'bigint') Object.assign(ctx.jsonSchema, { type: 'integer', minimum: 0 });
    },
  }) as JsonSchema;
}

/** Every field of an object schema, described; `advanced` names the fields to tuck away. */
export function describeFields(schema: z.$ZodType, advanced: readonly string[] = []): FieldInfo[] {
  const json = inputJsonSchema(schema);
  const properties = (json.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((json.required ?? []) as string[]);
  return Object.entries(properties).map(([name, field]) =>
    describeField(name, field, required.has(name), advanced),
  );
}

function describeField(
  name: string,
  field: JsonSchema,
  required: boolean,
  advanced: readonly string[],
): FieldInfo {
  const options = (field.options as FieldOption[] | undefined) ?? enumOptions(field);
  const info: FieldInfo = {
    name,
    displayName: typeof field.title === 'string' ? field.title : labelOf(name),
    description: typeof field.description === 'string' ? field.description : '',
    type: fieldType(field),
    required,
    advanced: advanced.includes(name),
    schema: field,
  };
  if (field.default !== undefined) info.default = field.default;
  const placeholder = field.placeholder ?? firstString(field.examples);
  if (typeof placeholder === 'string') info.placeholder = placeholder;
  if (options) info.options = options;
  return info;
}

function enumOptions(field: JsonSchema): FieldOption[] | undefined {
  const values = field.enum as unknown[] | undefined;
  if (!Array.isArray(values) || !values.every((v) => typeof v === 'string' || typeof v === 'number')) {
    return undefined;
  }
  return (values as (string | number)[]).map((value) => ({ name: String(value), value }));
}

function fieldType(field: JsonSchema): FieldType {
  if (Array.isArray(field.enum) || Array.isArray(field.options)) return 'options';
  const branches = (field.anyOf ?? field.oneOf) as JsonSchema[] | undefined;
  if (branches) {
    // A number that may also arrive as a numeric string (query strings carry text).
    const numeric = branches.some((b) => b.type === 'number' || b.type === 'integer');
    const freeText = branches.some((b) => b.type === 'string' && b.pattern === undefined && !b.enum);
    if (numeric && !freeText && branches.every((b) => b.type !== 'array' && b.type !== 'object')) {
      return 'number';
    }
    return branches.some((b) => b.type === 'array') ? 'stringList' : 'string';
  }
  switch (field.type) {
    case 'boolean':
      return 'boolean';
    case 'number':
    case 'integer':
      return 'number';
    case 'string':
      return 'string';
    case 'array': {
      const items = (field.items ?? {}) as JsonSchema;
      return items.type === 'object' || items.type === 'array' ? 'json' : 'stringList';
    }
    default:
      return 'json';
  }
}

function firstString(examples: unknown): string | undefined {
  return Array.isArray(examples) && typeof examples[0] === 'string' ? examples[0] : undefined;
}

const ACRONYMS: Record<string, string> = { Id: 'ID', Url: 'URL', Usd: 'USD', Evm: 'EVM', Btc: 'BTC' };

/** `toBlock` → `To Block`, `webhookUrl` → `Webhook URL`. */
export function labelOf(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(' ')
    .map((word) => {
      const capital = word.charAt(0).toUpperCase() + word.slice(1);
      return ACRONYMS[capital] ?? capital;
    })
    .join(' ');
}

/** The fields of an input schema that carry no description. */
export function undocumentedFields(schema: z.$ZodType): string[] {
  return Object.entries(inputShape(schema))
    .filter(([, field]) => (descriptionOf(field) ?? '').trim() === '')
    .map(([name]) => name);
}

type Def = {
  type: string;
  shape?: Record<string, z.$ZodType>;
  innerType?: z.$ZodType;
  in?: z.$ZodType;
  out?: z.$ZodType;
};
const defOf = (schema: z.$ZodType) => schema._zod.def as unknown as Def;

/**
 * The schema a wrapper's input JSON Schema is made of, keys and all (`io: 'input'`); undefined for
 * any other schema (`nullable` is not one: its JSON Schema puts the inner one in an `anyOf`).
 */
function innerOf(schema: z.$ZodType): z.$ZodType | undefined {
  const def = defOf(schema);
  if (def.type === 'pipe') return defOf(def.in!).type === 'transform' ? def.out : def.in;
  return WRAPPERS.has(def.type) ? def.innerType : undefined;
}
const WRAPPERS = new Set(['optional', 'default', 'prefault', 'nonoptional', 'readonly', 'catch']);

/** The input fields of an object schema, as its JSON Schema's `properties` lists them. */
function inputShape(schema: z.$ZodType): Record<string, z.$ZodType> {
  for (let current: z.$ZodType | undefined = schema; current; current = innerOf(current)) {
    const shape = defOf(current).shape;
    if (shape) return shape;
  }
  return {};
}

/** A field's description: the outermost one, as in its JSON Schema. */
function descriptionOf(field: z.$ZodType): string | undefined {
  for (let current: z.$ZodType | undefined = field; current; current = innerOf(current)) {
    const description = globalRegistry.get(current)?.description;
    if (typeof description === 'string') return description;
  }
  return undefined;
}

// resource.action → the id that claimed it. Per loaded copy of core, which is what a consumer routes with.
const claimed = new Map<string, string>();

/**
 * Checks what an endpoint says about itself, at definition time: every input field documented,
 * `advanced`/paging/chunking naming real fields, at least one example, and a resource + action
 * that no other endpoint uses. Throws an `Error` naming the endpoint (a programming error).
 */
export function checkPresentation(presentation: Presentation, input: z.$ZodType): void {
  const { id, resource, action } = presentation;
  const fail = (problem: string): never => {
    throw new Error(`${id}: ${problem}`);
  };
  for (const [name, value] of Object.entries({ id, resource, action })) {
    if (!/^[a-z][A-Za-z0-9]*$/.test(value))
      fail(`${name} must be a camelCase word, got ${JSON.stringify(value)}`);
  }
  if (!presentation.displayName?.trim() || !presentation.summary?.trim())
    fail('displayName and summary are required');
  const undocumented = undocumentedFields(input);
  if (undocumented.length > 0)
    fail(`field(s) ${undocumented.join(', ')} have no description (.meta({ description }))`);
  const names = new Set(Object.keys(inputShape(input)));
  const paging = presentation.paging;
  const named = [
    ...(presentation.advanced ?? []),
    ...(paging ? [paging.style === 'cursor' ? paging.cursorField : paging.pageField] : []),
    ...(paging?.limitField ? [paging.limitField] : []),
    ...(presentation.chunking ? [presentation.chunking.field] : []),
  ];
  const unknown = named.filter((name) => !names.has(name));
  if (unknown.length > 0) fail(`advanced, paging or chunking names unknown field(s) ${unknown.join(', ')}`);
  if (!Array.isArray(presentation.examples) || presentation.examples.length === 0)
    fail('needs at least one example');
  const { readOnly } = presentation;
  if (readOnly !== undefined && typeof readOnly !== 'boolean') fail('readOnly must be true or false');
  // A read is safe to send twice: one that is not would be retried by no one, run freely by hosts.
  if (readOnly === true && (presentation as { idempotent?: boolean }).idempotent === false)
    fail('readOnly: true needs idempotent: true');
  const key = `${resource}.${action}`;
  const owner = claimed.get(key);
  if (owner !== undefined && owner !== id) fail(`resource + action ${key} is already used by ${owner}`);
  claimed.set(key, id);
}

/**
 * One entry of a package's table of callables: the endpoint, the input its SDK function takes
 * (which may differ from one wire request's: Solana prices take any number of addresses), and the
 * function itself. A consumer routes `resource`/`action` to code with no switch of its own.
 */
export interface Action<
  D extends Presentation = Presentation,
  C = unknown,
  I extends z.$ZodType = z.$ZodType,
  R = unknown,
> {
  operation: D;
  input: I;
  call(client: C, input: z.input<I>, options?: CallOptions): Promise<R>;
}

/** An action, ready to present: the endpoint's presentation with its fields described. */
export interface ActionDescription extends Presentation {
  fields: FieldInfo[];
  /** Whether it changes nothing at the service (see `Presentation.readOnly`): always set here. */
  readOnly: boolean;
}

/**
 * Whether an endpoint changes nothing at the service: its own `readOnly`, or else the rule of
 * `Presentation.readOnly` (a GET or a JSON-RPC method reads). The one place that rule is written.
 */
function isReadOnly(presentation: Presentation & { method?: string; path?: string }): boolean {
  if (presentation.readOnly !== undefined) return presentation.readOnly;
  // A REST operation has a path template; a JSON-RPC method's `method` is its JSON-RPC name.
  const rest = typeof presentation.path === 'string';
  return !rest || presentation.method === 'GET';
}

/** Everything a UI, a doc or an agent tool needs about an action: its presentation and its fields described. */
export function describeAction(action: Action): ActionDescription {
  const { operation } = action;
  const presentation: Presentation = {
    id: operation.id,
    resource: operation.resource,
    action: operation.action,
    displayName: operation.displayName,
    summary: operation.summary,
    examples: operation.examples,
  };
  if (operation.advanced) presentation.advanced = operation.advanced;
  if (operation.paging) presentation.paging = operation.paging;
  if (operation.chunking) presentation.chunking = operation.chunking;
  return {
    ...presentation,
    fields: describeFields(action.input, operation.advanced),
    readOnly: isReadOnly(operation),
  };
}

/**
 * Declares an action. `input` is what `call` accepts: the operation's own input unless the SDK
 * function takes more (a list it chunks, a cursor it follows); either way, every field documented.
 */
export function defineAction<D extends Presentation, C, I extends z.$ZodType, R>(
  action: Action<D, C, I, R>,
): Action<D, C, I, R> {
  const undocumented = undocumentedFields(action.input);
  if (undocumented.length > 0) {
    throw new Error(`${action.operation.id}: action field(s) ${undocumented.join(', ')} have no description`);
  }
  return Object.freeze({ ...action });
}
