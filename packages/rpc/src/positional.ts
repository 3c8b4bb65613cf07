import { type CallOptions, ValidationError, type ValidationIssue } from '@blockwire/core/operations';
import type { Hex } from './inputs.js';
import { isRecord } from './is-record.js';
import { paramsToInput, type RpcMethod, type RpcMethodInput, type RpcMethodResult } from './method.js';
import type { Block, Transaction } from './schemas.js';

/** A method's arguments in `args` order, each typed as its params field accepts it; trailing optional ones optional. */
type Positional<Names extends readonly string[], Input> = Names extends readonly [
  infer Name extends string,
  ...infer Rest extends readonly string[],
]
  ? Name extends keyof Input
    ? undefined extends Input[Name]
      ? [argument?: Input[Name], ...Positional<Rest, Input>]
      : [argument: Input[Name], ...Positional<Rest, Input>]
    : []
  : [];

type Signature<M extends RpcMethod, Input, Result> = (
  ...args: [...Positional<M['args'], Input>, options?: CallOptions]
) => Promise<Result>;

type WithFullTransactions<Input, Flag> = Omit<Input, 'fullTransactions'> &
  (undefined extends Flag ? { fullTransactions?: Flag } : { fullTransactions: Flag });
type BlockWith<Result, T extends Hex | Transaction> = Result extends { transactions: unknown[] }
  ? Block<T>
  : Result;

/**
 * A typed method as a positional function, derived from its definition: its arguments in `args`
 * order, typed as its params accept them, then call options; it resolves to its result schema's
 * output. A method that takes `fullTransactions` also says which block it returns (the client
 * checks the node kept to it): `Block<Transaction>` when true, `Block<Hex>` when false or left out.
 */
export type RpcMethodFunction<M extends RpcMethod> = 'fullTransactions' extends M['args'][number]
  ? Signature<M, WithFullTransactions<RpcMethodInput<M>, true>, BlockWith<RpcMethodResult<M>, Transaction>> &
      Signature<
        M,
        WithFullTransactions<RpcMethodInput<M>, false | undefined>,
        BlockWith<RpcMethodResult<M>, Hex>
      > &
      Signature<M, RpcMethodInput<M>, RpcMethodResult<M>>
  : Signature<M, RpcMethodInput<M>, RpcMethodResult<M>>;

type Call = <M extends RpcMethod>(
  method: M,
  input: RpcMethodInput<M>,
  options?: CallOptions,
) => Promise<RpcMethodResult<M>>;

/** A method called with positional arguments through `call`, as the `RpcClient` type derived from it says. */
export function positional<M extends RpcMethod>(method: M, call: Call): RpcMethodFunction<M> {
  const count = method.args.length;
  // Not async: a batch of blocks makes hundreds of these calls at once, and what each allocates
  // lives until its answer (see call-queue.ts).
  function invoke(...args: unknown[]): Promise<RpcMethodResult<M>> {
    if (args.length > count + 1) {
      return Promise.reject(
        new ValidationError(
          [
            {
              path: '',
              message: `takes at most ${count + 1} arguments (${method.args.join(', ')}, options), got ${args.length}`,
            },
          ],
          { subject: `arguments of ${method.id}`, operation: method.id },
        ),
      );
    }
    // Copied only when call options follow the arguments.
    const input = paramsToInput(method, args.length > count ? args.slice(0, count) : args);
    return call(method, input as RpcMethodInput<M>, args[count] as CallOptions | undefined);
  }
  // The one claim the types cannot check: which block a `fullTransactions` flag returns. `call`
  // checks it at run time (checkTransactions), so the narrower overloads hold.
  return invoke as RpcMethodFunction<M>;
}

/**
 * The node must answer `fullTransactions: true` with transaction objects and `false` with hashes:
 * the types promise one or the other, and a mix would break code that relies on them.
 */
export function checkTransactions(
  method: RpcMethod,
  params: unknown[],
  result: unknown,
): ValidationIssue | undefined {
  const index = method.args.indexOf('fullTransactions');
  if (index === -1 || !isRecord(result) || !Array.isArray(result.transactions)) return undefined;
  const full = params[index] === true;
  const wrong = result.transactions.findIndex((tx) => (typeof tx === 'string') === full);
  if (wrong === -1) return undefined;
  return {
    path: `transactions.${wrong}`,
    message: full ? 'must be a transaction object (fullTransactions was true)' : 'must be a transaction hash',
  };
}
