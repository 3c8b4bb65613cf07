/** The shape of an operation (see operation.ts): types only, so every part of the operation layer can name it. */
import type * as z from 'zod/v4/core';
import type { Api, CallOptions, HttpMethod } from './client-types.js';
import type { Presentation } from './metadata.js';

export type FieldLocation = 'path' | 'query' | 'body';

/** Where an input field goes, and under which name when the contract spells it differently. */
export interface FieldMapping {
  in: FieldLocation;
  /** The name on the wire, e.g. `to_block` for `toBlock`. Default: the field's own name. */
  as?: string;
}

export interface Operation<I extends z.$ZodType = z.$ZodType, R extends z.$ZodType = z.$ZodType>
  extends Presentation {
  api: Api;
  method: HttpMethod;
  /** Path template below the interface's base URL, with `{field}` placeholders. */
  path: `/${string}`;
  /** Validates and normalises the input; its output holds wire-ready values. */
  input: I;
  /** Where each input field goes. Every field of the input schema is listed. */
  fields: { [K in keyof z.output<I> & string]-?: FieldLocation | FieldMapping };
  /** Validates the 2xx response; unknown fields pass through. */
  response: R;
  /** Safe to send twice (GET, read-only POST, idempotent write)? Decides what is retried. */
  idempotent: boolean;
}

export type OperationInput<O extends Operation> = z.input<O['input']>;
export type OperationOutput<O extends Operation> = z.output<O['response']>;

export type { CallOptions };
