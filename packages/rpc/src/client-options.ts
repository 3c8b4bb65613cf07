import {
  MAX_TIMER_MS,
  unknownKeyIssues,
  ValidationError,
  type ValidationIssue,
} from '@blockwire/core/operations';
import { isRecord } from './is-record.js';

/** The service accepts at most this many calls in one batch. */
export const MAX_BATCH_SIZE = 20;

export interface BatchOptions {
  /** Most calls per HTTP request, 1 to 20. Default 20. */
  maxSize?: number;
  /** How long to gather calls before sending, in milliseconds. Default 0: the calls of the same tick. */
  waitMs?: number;
}

export interface RpcClientOptions {
  /** The chain's path segment on the node interface, e.g. `avalanche`, `arbitrum`, `ronin`, `mantle`. */
  chain: string;
  /** Send the calls made together as one JSON-RPC batch (default), or `false` for one HTTP request per call. */
  batch?: BatchOptions | false;
}

const OPTION_NAMES = Object.keys({ chain: true, batch: true } satisfies Record<keyof RpcClientOptions, true>);
const BATCH_OPTION_NAMES = Object.keys({ maxSize: true, waitMs: true } satisfies Record<
  keyof BatchOptions,
  true
>);

export function resolveOptions(options: RpcClientOptions): {
  chain: string;
  batch: Required<BatchOptions> | undefined;
} {
  const subject = 'RPC client options';
  if (!isRecord(options)) {
    throw new ValidationError(
      [
        {
          path: '',
          message: 'createRpcClient(client, options) needs options such as { chain: "avalanche" }',
        },
      ],
      { subject },
    );
  }
  const issues: ValidationIssue[] = [];
  issues.push(...unknownKeyIssues(options, { kind: 'option', names: OPTION_NAMES }));
  const { chain } = options;
  if (typeof chain !== 'string' || !CHAIN_SEGMENT.test(chain)) {
    issues.push({
      path: 'chain',
      message: `must be a chain path segment of lowercase letters, digits and dashes, e.g. "avalanche"${chainHint(chain)}`,
    });
  }
  const batch = resolveBatch(options.batch, issues);
  if (issues.length > 0) throw new ValidationError(issues, { subject });
  return { chain: chain as string, batch };
}

/** One path segment, nothing a URL could resolve or a proxy decode: no dots, slashes or escapes. */
const CHAIN_SEGMENT = /^[a-z0-9-]+$/;

/** `Avalanche` or `arbitrum nova` mean a valid segment: say which. */
function chainHint(chain: unknown): string {
  if (typeof chain !== 'string' || chain.length > 64) return '';
  const meant = chain
    .trim()
    .toLowerCase()
    .replace(/[\s_]+/g, '-');
  return meant !== chain && CHAIN_SEGMENT.test(meant) ? ` (did you mean "${meant}"?)` : '';
}

function resolveBatch(batch: unknown, issues: ValidationIssue[]): Required<BatchOptions> | undefined {
  if (batch === false) return undefined;
  if (batch !== undefined && !isRecord(batch)) {
    issues.push({ path: 'batch', message: 'must be an object such as { maxSize: 20, waitMs: 0 }, or false' });
    return undefined;
  }
  issues.push(
    ...unknownKeyIssues(batch ?? {}, {
      kind: 'batch option',
      names: BATCH_OPTION_NAMES,
      pathPrefix: 'batch.',
    }),
  );
  const { maxSize = MAX_BATCH_SIZE, waitMs = 0 } = (batch ?? {}) as BatchOptions;
  if (!Number.isInteger(maxSize) || maxSize < 1 || maxSize > MAX_BATCH_SIZE) {
    issues.push({
      path: 'batch.maxSize',
      message: `must be an integer from 1 to ${MAX_BATCH_SIZE} (the service's batch limit)`,
    });
  }
  // Node's timers fire at once for a delay above 2^31-1 ms.
  if (typeof waitMs !== 'number' || !(waitMs >= 0 && waitMs <= MAX_TIMER_MS)) {
    issues.push({
      path: 'batch.waitMs',
      message: `must be a number of milliseconds from 0 to ${MAX_TIMER_MS}`,
    });
  }
  return { maxSize, waitMs };
}
