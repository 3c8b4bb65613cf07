// Calls whose repetition could change state: an HTTP failure after sending them is not retried.
const UNSAFE_TO_REPEAT = /^(eth_send|eth_submit|personal_|anvil_|hardhat_|evm_|miner_|admin_)/;
// Reads whose answer depends on who asked before: two polls of a filter get different changes.
const ANSWER_DEPENDS_ON_CALLER = /Filter|subscribe/;

/** Whether sending the call twice could change state twice. */
export function unsafeToRepeat(method: string): boolean {
  return UNSAFE_TO_REPEAT.test(method);
}

/** Whether two identical calls in flight at once may share one request and its answer. */
export function mergeable(method: string): boolean {
  return !UNSAFE_TO_REPEAT.test(method) && !ANSWER_DEPENDS_ON_CALLER.test(method);
}

/** The identity of a call for merging, or undefined when its params cannot be told apart (e.g. a bigint). */
export function mergeKey(method: string, params: unknown): string | undefined {
  try {
    return `${method} ${JSON.stringify(params)}`;
  } catch {
    return undefined;
  }
}
