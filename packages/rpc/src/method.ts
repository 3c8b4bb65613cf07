/**
 * A JSON-RPC method of the node interface, described once as data: the SDK method, its argument
 * rules and its result shape all come from this object (the emulator can check calls with it too).
 */
import {
  checkPresentation,
  type Presentation,
  ValidationError,
  validateInput,
} from '@blockwire/core/operations';
import type * as z from 'zod/v4';

export interface RpcMethod<
  P extends z.ZodObject = z.ZodObject,
  R extends z.ZodType = z.ZodType,
  M extends string = string,
  A extends readonly string[] = readonly (keyof z.output<P> & string)[],
  Id extends string = string,
> extends Presentation {
  /** The SDK method's name, e.g. `getBlockByHash`: the `RpcClient` method that calls it. */
  id: Id;
  /** The JSON-RPC method name, e.g. `eth_getBlockByHash`. */
  method: M;
  /** The arguments in `params` order; each is a field of `params`. */
  args: A;
  /** Validates the arguments by name; its output holds the wire values. */
  params: P;
  /** Validates the `result` of the response; unknown fields pass through. */
  result: R;
}

export type RpcMethodInput<M extends RpcMethod> = z.input<M['params']>;
export type RpcMethodResult<M extends RpcMethod> = z.output<M['result']>;

/** What an `RpcClient` holds besides its typed methods, which are named by their ids. */
const CLIENT_MEMBERS = new Set(['chain', 'request', 'call', 'readContract', 'getTokenBalance']);

/**
 * Declares a method, checking that `args` and the fields of `params` agree and that it presents
 * itself fully (every argument documented, a unique resource + action, an example).
 */
export function defineRpcMethod<
  P extends z.ZodObject,
  R extends z.ZodType,
  M extends string,
  const A extends readonly (keyof z.output<P> & string)[],
  const Id extends string,
>(method: RpcMethod<P, R, M, A, Id>): RpcMethod<P, R, M, A, Id> {
  if (CLIENT_MEMBERS.has(method.id)) {
    throw new Error(`rpc method ${method.id}: the id names a member of every RpcClient; pick another`);
  }
  const fields = Object.keys(method.params.shape).sort();
  if ([...method.args].sort().join() !== fields.join()) {
    throw new Error(
      `rpc method ${method.id}: args [${method.args.join(', ')}] must list every params field (${fields.join(', ')})`,
    );
  }
  checkPresentation(method, method.params);
  Object.freeze(method.args);
  return Object.freeze({ ...method });
}

/** Validates named arguments and returns the JSON-RPC `params` array; a `ValidationError` names each bad argument. */
export function encodeParams<M extends RpcMethod>(method: M, input: RpcMethodInput<M>): unknown[] {
  const values = validateInput(method.params, input, { operation: method.id }) as Record<string, unknown>;
  return method.args.map((name) => values[name]);
}

/** Names the positional values of a `params` array (or of a method call) by the method's `args`. */
export function paramsToInput(method: RpcMethod, params: readonly unknown[]): Record<string, unknown> {
  if (params.length > method.args.length) {
    throw new ValidationError(
      [{ path: '', message: `takes at most ${method.args.length} argument(s), got ${params.length}` }],
      { operation: method.id },
    );
  }
  const input: Record<string, unknown> = {};
  for (let i = 0; i < method.args.length; i++) input[method.args[i]!] = params[i];
  return input;
}
