/**
 * The contract's full field lists, as a check a reply can fail. The SDK's response schemas are
 * liberal on purpose (a missing optional field must not cost a caller the answer), so passing them
 * shows little: `[{ foo: 1 }]` passes the Solana price schema. The field lists are the ones the SDK
 * schemas write down, read as JSON Schema and made strict here: each field present (null only
 * where the schema allows it), of its type, in an object that holds nothing else. An object whose
 * fields the contract does not show (no properties) takes anything.
 *
 * Where the service's spec says a shape is "not shown", its schema carries
 * `"x-blockwire-fields": "not shown"` (see `@blockwire/streams`' schemas), and the check promises
 * no more than that: in such an object, and everything inside it, a field the schema types is of
 * its type when present, and any other field passes. A reply that may have no body (a schema that
 * takes `undefined`) passes without one.
 */
import { inputJsonSchema, type JsonSchema, type Operation, validateResponse } from '@blockwire/core';

/** The JSON Schema keyword, and its value, that marks a shape whose fields the spec does not show. */
export const FIELDS_KEYWORD = 'x-blockwire-fields';
export const NOT_SHOWN = 'not shown';

/** Where a reply of `operation` breaks the contract's field lists; empty when it holds them. */
export function contractIssues(operation: Operation, reply: unknown): string[] {
  if (reply === undefined && acceptsNoBody(operation)) return [];
  return issuesAgainst(inputJsonSchema(operation.response), reply, '(the body)', false);
}

function acceptsNoBody(operation: Operation): boolean {
  try {
    validateResponse(operation.response, undefined);
    return true;
  } catch {
    return false;
  }
}

function issuesAgainst(schema: JsonSchema, value: unknown, at: string, notShown: boolean): string[] {
  const loose = notShown || schema[FIELDS_KEYWORD] === NOT_SHOWN;
  const branches = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (branches) {
    const results = branches.map((branch) => issuesAgainst(branch, value, at, loose));
    return (
      results.find((issues) => issues.length === 0) ?? results.find((issues) => !isNullIssue(issues)) ?? []
    );
  }
  if (Array.isArray(schema.type)) {
    const types = schema.type as string[];
    return issuesAgainst({ anyOf: types.map((type) => ({ ...schema, type })) }, value, at, loose);
  }
  if (Array.isArray(schema.enum) && !schema.enum.includes(value))
    return [`${at}: not one of ${schema.enum.join(', ')}`];
  switch (schema.type) {
    case 'null':
      // Present, and null where the schema allows it: the service's "not known" or "not applicable".
      return value === null ? [] : [`${at}: must be null`];
    case 'string':
    case 'boolean':
      return typeof value === schema.type ? [] : [`${at}: must be a ${schema.type}`];
    case 'number':
      return typeof value === 'number' ? [] : [`${at}: must be a number`];
    case 'integer':
      return Number.isInteger(value) ? [] : [`${at}: must be an integer`];
    case 'array':
      if (!Array.isArray(value)) return [`${at}: must be an array`];
      return value.flatMap((item, i) =>
        issuesAgainst((schema.items ?? {}) as JsonSchema, item, `${at}[${i}]`, loose),
      );
    case 'object':
      return objectIssues(schema, value, at, loose);
    default:
      return []; // a structure the contract does not show
  }
}

const isNullIssue = (issues: string[]) => issues.length === 1 && issues[0]!.endsWith(': must be null');

function objectIssues(schema: JsonSchema, value: unknown, at: string, notShown: boolean): string[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return [`${at}: must be an object`];
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const names = Object.keys(properties);
  if (names.length === 0) return []; // an object whose fields the contract does not show
  const record = value as Record<string, unknown>;
  const prefix = at === '(the body)' ? '' : `${at}.`;
  const typed = names.flatMap((name) =>
    record[name] === undefined
      ? notShown
        ? []
        : [`${prefix}${name}: missing`]
      : issuesAgainst(properties[name]!, record[name], `${prefix}${name}`, notShown),
  );
  if (notShown) return typed;
  return [
    ...typed,
    ...Object.keys(record)
      .filter((name) => !names.includes(name))
      .map((name) => `${prefix}${name}: not in the contract`),
  ];
}
