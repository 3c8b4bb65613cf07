/**
 * The parts of Node's `IncomingMessage` and `ServerResponse` the `(req, res)` listener uses, typed
 * by shape: Node's own objects and Express's fit, and the package's types compile in a project
 * without `@types/node` (a worker, Deno, a browser bundle).
 */
export interface NodeIncomingMessage {
  method?: string | undefined;
  headers: Record<string, string | string[] | undefined>;
  on(event: 'data', listener: (chunk: Uint8Array) => void): unknown;
  off(event: 'data', listener: (chunk: Uint8Array) => void): unknown;
  once(event: 'end', listener: () => void): unknown;
  once(event: 'error', listener: (error: Error) => void): unknown;
  resume(): unknown;
  /** Drops a request whose refused body goes on and on. */
  destroy?(): unknown;
}

export interface NodeServerResponse {
  statusCode: number;
  setHeader(name: string, value: string): unknown;
  end(body: string): unknown;
  /** Drops the connection when an answer can no longer be written. */
  destroy(): unknown;
}
