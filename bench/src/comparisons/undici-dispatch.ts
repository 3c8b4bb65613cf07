/**
 * The leanest undici call there is, the baseline of `rest-overhead` and `json-rpc`: `dispatch`
 * with a handler that gathers the body, decodes it once and parses it in the same callback, with no
 * promise between the last chunk and the parsed answer. A body that came in one chunk (the
 * usual case for a price) is decoded from that chunk, with no copy; only several are joined, once,
 * into a buffer of their known total size. Blockwire's undici transport reads a body the same way.
 */
import type { Dispatcher } from 'undici';

/** The body of a 200 answer, `JSON.parse`d (no validation); any other status rejects. */
export function dispatchJson<T>(dispatcher: Dispatcher, request: Dispatcher.DispatchOptions): Promise<T> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let status = 0;
    dispatcher.dispatch(request, {
      onRequestStart() {},
      onResponseStart(_controller, statusCode) {
        status = statusCode;
      },
      onResponseData(_controller, chunk) {
        chunks.push(chunk);
        size += chunk.length;
      },
      onResponseEnd() {
        if (status !== 200) reject(new Error(`status ${status}`));
        else {
          try {
            resolve(JSON.parse(textOf(chunks, size)) as T);
          } catch (error) {
            reject(error);
          }
        }
      },
      onResponseError(_controller, error) {
        reject(error);
      },
    });
  });
}

/** The chunks as UTF-8 text, joined only when there are several. */
export function textOf(chunks: readonly Buffer[], size: number): string {
  if (chunks.length === 0) return '';
  if (chunks.length === 1) return chunks[0]!.toString('utf8');
  return Buffer.concat(chunks, size).toString('utf8');
}
