/**
 * The node interface: `POST {node}/{chain}/{apiKey}` with a JSON-RPC envelope or batch, passed
 * through to anvil. Every chain slug is served by the same local chain.
 */
import { EVM_CHAINS } from '@blockwire/core';
import type { HandlerResult } from '../handlers/result.js';

/** The service caps JSON-RPC batches at this many calls. */
export const MAX_BATCH_SIZE = 20;
/** EIP-1474 "limit exceeded": what a batch over the cap gets. */
export const BATCH_TOO_LARGE_CODE = -32005;

/** Chain slugs the node interface accepts: every chain of the EVM data interface, plus mantle. */
export const NODE_CHAINS: readonly string[] = [
  ...new Set([...EVM_CHAINS.map((chain) => chain.name.replace(/ /g, '-')), 'mantle']),
];

export const rpcError = (code: number, message: string, id: unknown = null) => ({
  jsonrpc: '2.0',
  id,
  error: { code, message },
});

export async function proxyJsonRpc(anvilUrl: string, chain: string, rawBody: string): Promise<HandlerResult> {
  if (!NODE_CHAINS.includes(chain)) {
    return {
      status: 404,
      body: rpcError(
        -32601,
        `unknown chain "${chain}"; the node interface serves: ${NODE_CHAINS.join(', ')}`,
      ),
    };
  }
  let body: unknown;
  try {
    body = JSON.parse(rawBody);
  } catch {
    return { status: 400, body: rpcError(-32700, 'Parse error: the body is not valid JSON') };
  }
  if (Array.isArray(body)) {
    if (body.length === 0) return { status: 400, body: rpcError(-32600, 'Invalid Request: empty batch') };
    if (body.length > MAX_BATCH_SIZE) {
      return {
        status: 200,
        body: rpcError(BATCH_TOO_LARGE_CODE, `batch size exceeds ${MAX_BATCH_SIZE} (got ${body.length})`),
      };
    }
  } else if (typeof body !== 'object' || body === null) {
    return { status: 400, body: rpcError(-32600, 'Invalid Request: expected a JSON-RPC object or batch') };
  }
  const response = await fetch(anvilUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: rawBody,
  });
  const text = await response.text();
  try {
    return { status: response.status, body: JSON.parse(text) };
  } catch {
    return {
      status: 502,
      body: rpcError(-32603, `the node answered with something other than JSON: ${text.slice(0, 200)}`),
    };
  }
}
