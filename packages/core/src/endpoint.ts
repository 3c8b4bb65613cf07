/**
 * An endpoint in one definition: the operation (data the n8n node, the emulator and an agent
 * tool are built from) and the SDK function that calls it, from one `defineEndpoint` call.
 */
import type * as z from 'zod/v4/core';
import type { CallOptions, Client } from './client-types.js';
import { type Action, defineAction } from './metadata.js';
import { defineOperation, type Operation, runOperation } from './operation.js';

/** An endpoint: its operation, what its SDK function accepts, and that function (an `Action`). */
export interface Endpoint<
  O extends Operation = Operation,
  I extends z.$ZodType = z.$ZodType,
  Result = unknown,
  Options extends CallOptions = CallOptions,
> {
  readonly operation: O;
  readonly input: I;
  readonly call: (client: Client, ...args: CallArguments<I, Options>) => Promise<Result>;
}

/**
 * An entry of a REST package's table of callables (`actions` of `@blockwire/prices/operations`,
 * entities, streams), as a host reads it: the endpoint's whole operation (method, field
 * placements, response schema) and its SDK function. Every such table `satisfies` it.
 */
export type RestAction = Action<Operation, Client>;

/** `input` may be left out when every field of it is optional. */
export type CallArguments<I extends z.$ZodType, Options> =
  Partial<z.input<I>> extends z.input<I>
    ? [input?: z.input<I>, options?: Options]
    : [input: z.input<I>, options?: Options];

/** For an SDK function that does more than one request: what it accepts and how it calls. */
export interface EndpointCall<I extends z.$ZodType, Result, Options extends CallOptions> {
  /** What `call` accepts, every field documented (the operation's input, or more: a list it chunks). */
  input: I;
  call(client: Client, input: z.input<I>, options?: Options): Promise<Result>;
}

type Defined<I extends z.$ZodType, R extends z.$ZodType, Id extends string> = Operation<I, R> & {
  readonly id: Id;
};

/**
 * Defines an endpoint once. Its operation is checked as `defineOperation` checks it, and its
 * SDK function sends one request with `runOperation`:
 *
 * ```ts
 * export const getEntityEndpoint = defineEndpoint({ id: 'getEntity', path: '/entities/{entityId}', … });
 * export const getEntity = getEntityEndpoint.call;
 * ```
 *
 * An SDK function that does more (chunks a list, fans out one request per address) passes its
 * own `{ input, call }`; an operation defined elsewhere may be passed instead of a definition.
 */
export function defineEndpoint<I extends z.$ZodType, R extends z.$ZodType, const Id extends string>(
  definition: Operation<I, R> & { id: Id },
): Endpoint<Defined<I, R, Id>, I, z.output<R>>;
export function defineEndpoint<
  I extends z.$ZodType,
  R extends z.$ZodType,
  const Id extends string,
  CallInput extends z.$ZodType,
  Result,
  Options extends CallOptions = CallOptions,
>(
  definition: Operation<I, R> & { id: Id },
  custom: EndpointCall<CallInput, Result, Options>,
): Endpoint<Defined<I, R, Id>, CallInput, Result, Options>;
export function defineEndpoint(
  definition: Operation & { id: string },
  custom?: EndpointCall<z.$ZodType, unknown, CallOptions>,
): Endpoint {
  const operation = defineOperation(definition);
  const input = custom?.input ?? operation.input;
  const call =
    custom?.call ??
    ((client: Client, values: unknown, options?: CallOptions) =>
      runOperation(client, operation, values, options));
  return defineAction({ operation, input, call }) as Endpoint;
}
