import { type Action, type CallOptions, defineAction } from '@blockwire/core/operations';
import type { RpcClient } from './client.js';
import type { RpcMethod, RpcMethodInput, RpcMethodResult } from './method.js';
import { methods } from './methods/index.js';

/**
 * An entry of this package's table of callables, as a host reads it: the method's whole
 * definition (its JSON-RPC name, the `result` schema) and the call taking an `RpcClient`.
 */
export type RpcAction<M extends RpcMethod = RpcMethod> = Action<
  M,
  RpcClient,
  M['params'],
  RpcMethodResult<M>
>;

function actionOf<M extends RpcMethod>(method: M): RpcAction<M> {
  return defineAction({
    operation: method,
    input: method.params,
    call: (rpc: RpcClient, input: RpcMethodInput<M>, options?: CallOptions) =>
      rpc.call(method, input, options),
  });
}

/**
 * Every typed method as data, in file order (one file per method in `methods/`): a consumer routes
 * `operation.resource` (`rpc`) and `operation.action` to `call`, which takes an `RpcClient` and
 * named arguments. Calls made in the same tick go out as one JSON-RPC batch.
 */
export const actions = methods.map(actionOf) satisfies readonly RpcAction[];
