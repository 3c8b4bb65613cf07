import type { RestAction } from '@blockwire/core/operations';
import { endpoints } from './operations/definitions.js';

/**
 * The SDK functions of this package as data, one per endpoint file in `./operations` (in file
 * order): a consumer (the n8n node, the emulator, an agent tool) routes `operation.resource` /
 * `operation.action` to `call` with no switch of its own. Listings return one page; their
 * operation's `paging` says how to ask for the next.
 */
export const actions = endpoints satisfies readonly RestAction[];

/** Every operation of this package, in the same order. */
export const operations = actions.map((action) => action.operation);
