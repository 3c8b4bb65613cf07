/**
 * One API route of the demo server: what the page may send (a zod schema, checked before any
 * call) and what it gets back. Inputs are only shaped here (types, lengths); the SDK checks
 * their content (address formats, chains) and names the field when one is wrong.
 */
import * as z from 'zod/v4';
import type { Backend } from '../backend.js';
import type { BitcoinBoard } from '../bitcoin-board.js';

export interface RouteContext {
  backend: Backend;
  /** The live board; undefined while it is off. */
  board: BitcoinBoard | undefined;
  /** Why the board is off when it could not be set up. */
  boardOff?: string;
}

export interface Route<S extends z.ZodType = z.ZodType> {
  method: 'GET' | 'POST';
  /** Exact path, e.g. `/api/prices/evm`. GET routes read the query, POST routes a JSON body. */
  path: string;
  input: S;
  /** What was asked for, in words, to make a "not found" specific ("this token on eth"). */
  subject?: (input: z.output<S>) => string;
  handle: (input: z.output<S>) => Promise<unknown>;
}

/** Keeps each route's input type tied to its schema, then erases it for the router. */
export const defineRoute = <S extends z.ZodType>(route: Route<S>): Route => route as unknown as Route;

/** A lone surrogate cannot be encoded into a URL or UTF-8: refuse it as input, not deep in a call. */
const LONE_SURROGATE = /\p{Cs}/u;

/** A required text field: trimmed, non-empty, bounded, well-formed. */
export const text = (max: number) =>
  z
    .string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be text') })
    .trim()
    .min(1, { error: 'is required' })
    .max(max, { error: `must be at most ${max} characters` })
    .refine((value) => !LONE_SURROGATE.test(value), { error: 'contains a broken character' });

/** An optional text field of a query string: an empty value counts as left out. */
export const optionalText = (max: number) =>
  z.preprocess((value) => (value === '' ? undefined : value), text(max).optional());

/** A whole number ≥ 0 given as digits (query strings carry text), of at most `max` digits. */
export const digits = (max = 18) =>
  z
    .string({ error: 'must be a whole number' })
    .trim()
    .regex(/^\d+$/, { error: 'must be a whole number (digits only)' })
    .max(max, { error: `must be at most ${max} digits long` });

export const optionalDigits = (max?: number) =>
  z.preprocess((value) => (value === '' ? undefined : value), digits(max).optional());
