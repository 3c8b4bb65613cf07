// Test helpers (not exported): the shared test server, and JSON-RPC request reading.
export { json, type RecordedRequest, type Responder, startServer } from '@blockwire/testing';

export interface Call {
  jsonrpc: string;
  id: number;
  method: string;
  params: unknown[];
}

/** The calls of a JSON-RPC request body, whether it was one call or a batch. */
export function callsOf(body: unknown): Call[] {
  return (Array.isArray(body) ? body : [body]) as Call[];
}
