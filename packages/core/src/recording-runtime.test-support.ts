// For tests only (no entry imports it, so no build ships it).
import type { ClientRuntime } from './client-types.js';
import type { TransportResponse } from './transport.js';

/** A runtime with no timer at all: attempts run until the transport answers, waits are recorded. */
export function recordingRuntime(waits: number[]): ClientRuntime {
  return {
    userAgent: undefined,
    attempts: () => ({
      start: (_signal, send) =>
        new Promise<TransportResponse>((resolve, reject) => send({ resolve, reject, onCancel: undefined })),
    }),
    sleep: async (ms) => {
      waits.push(ms);
    },
  };
}
