import type { RestAction } from '@blockwire/core/operations';
import { endpoints } from './operations/definitions.js';

/**
 * The management functions of this package as data, one per endpoint file in `./operations` (in
 * file order): a consumer routes `operation.resource` / `operation.action` to `call` with no
 * switch of its own. Adding addresses takes a list: `call` sends one request per address (the
 * service's limit) and reports each.
 */
export const actions = endpoints satisfies readonly RestAction[];

/** Every management call of the streams interface, in the same order. */
export const operations = actions.map((action) => action.operation);
