/**
 * A route's handler, typed by its operation: it receives the operation's validated input and
 * returns what the operation's response schema accepts, so a handler cannot drift from the
 * contract the SDK holds it to. Its reply is checked again at run time: a reply that breaks the
 * response schema is a 500 naming the operation, never a silent wrong answer.
 */
import { issuesOf, type Operation } from '@blockwire/core';
import * as z from 'zod/v4';
import type { HandlerResult } from './result.js';

/** A request the service refuses: the HTTP status to answer and a message naming the field. */
export class RefusedRequest extends Error {
  override readonly name = 'RefusedRequest';
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export const badRequest = (message: string): RefusedRequest => new RefusedRequest(400, message);
export const notFound = (message: string): RefusedRequest => new RefusedRequest(404, message);

/** What a handler of this operation receives: its validated input. */
export type HandlerInput<O extends Operation> = z.output<O['input']>;

/** An operation with the code that serves it. */
export interface Route {
  readonly operation: Operation;
  /** Serves already validated input: the reply, checked against the response schema. */
  serve(input: unknown): Promise<HandlerResult>;
}

export function defineHandler<I extends z.core.$ZodType, R extends z.core.$ZodType>(
  operation: Operation<I, R>,
  handle: (input: z.output<I>) => z.input<R> | Promise<z.input<R>>,
): Route {
  return {
    operation,
    async serve(input) {
      let body: unknown;
      try {
        body = await handle(input as z.output<I>);
      } catch (error) {
        if (error instanceof RefusedRequest)
          return { status: error.status, body: { message: error.message } };
        throw error;
      }
      const checked = z.safeParse(operation.response, body);
      if (checked.success) return { status: 200, body };
      const problems = issuesOf(checked.error).map(
        (issue) => `${issue.path || '(the body)'}: ${issue.message}`,
      );
      return {
        status: 500,
        body: {
          message: `Emulator error: its reply to ${operation.id} breaks the operation's response schema (${problems.join('; ')})`,
        },
      };
    },
  };
}

/** The code serving one operation: its validated input in, a reply its response schema accepts out. */
export type HandlerOf<O> = O extends {
  input: infer I extends z.core.$ZodType;
  response: infer R extends z.core.$ZodType;
}
  ? (input: z.output<I>) => z.input<R> | Promise<z.input<R>>
  : never;

/**
 * One handler per operation of `Ops`, keyed by operation id: leaving one out, or naming one that is
 * not there, does not compile.
 */
export type HandlerTable<Ops extends readonly Operation[]> = {
  [O in Ops[number] as O['id']]: HandlerOf<O>;
};

/** The routes of a package's operations, from a table that has a handler for each of them. */
export function defineRoutes<const Ops extends readonly Operation[]>(
  operations: Ops,
  handlers: NoInfer<HandlerTable<Ops>>,
): Route[] {
  const byId = handlers as unknown as Record<string, (input: unknown) => unknown>;
  const ids = operations.map((operation) => operation.id);
  const missing = ids.filter((id) => typeof byId[id] !== 'function');
  const unknown = Object.keys(byId).filter((id) => !ids.includes(id));
  if (missing.length + unknown.length > 0) {
    throw new Error(
      `emulator handlers do not match the operations: missing ${missing.join(', ') || 'none'}; unknown ${unknown.join(', ') || 'none'}`,
    );
  }
  return operations.map((operation) => defineHandler(operation, byId[operation.id]!));
}

/** Checks that every operation has exactly one route: a missing handler fails the start, not a request. */
export function checkRoutes(routes: readonly Route[], operations: readonly Operation[]): void {
  const served = routes.map((route) => route.operation.id);
  const missing = operations.filter((operation) => !served.includes(operation.id)).map((op) => op.id);
  const twice = served.filter((id, index) => served.indexOf(id) !== index);
  const unknown = served.filter((id) => !operations.some((operation) => operation.id === id));
  if (missing.length + twice.length + unknown.length > 0) {
    throw new Error(
      `emulator routes do not match the operations: missing ${missing.join(', ') || 'none'}; served twice ${twice.join(', ') || 'none'}; unknown ${unknown.join(', ') || 'none'}`,
    );
  }
}
