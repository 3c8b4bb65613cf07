/** Test support (not part of the build): a streams service wired to a real receiver. */
import * as z from 'zod/v4';
import { type Receiver, startReceiver } from '../delivery/test-support.js';
import { createStreamsService, type StreamsService } from './service.js';
import type { StreamsState } from './state.js';

export interface Harness {
  service: StreamsService;
  receiver: Receiver;
  /** Validates `raw` with the operation's own input schema, as the router does, then serves it. */
  // biome-ignore lint/suspicious/noExplicitAny: response bodies are inspected freely in tests
  call(operationId: string, raw?: Record<string, unknown>): Promise<{ status: number; body: any }>;
  close(): Promise<void>;
}

export async function startHarness(
  options: {
    strictWebhooks?: boolean;
    retryDelaysMs?: number[];
    verificationTimeoutMs?: number;
    state?: StreamsState;
    onChange?: () => void;
  } = {},
): Promise<Harness> {
  const receiver = await startReceiver();
  const service = createStreamsService({
    seed: 42,
    strictWebhooks: options.strictWebhooks ?? false,
    delivery: {
      retryDelaysMs: options.retryDelaysMs ?? [10, 20, 40],
      timeoutMs: 5000,
      ...(options.verificationTimeoutMs ? { verificationTimeoutMs: options.verificationTimeoutMs } : {}),
    },
    ...(options.state ? { state: options.state } : {}),
    ...(options.onChange ? { onChange: options.onChange } : {}),
  });
  return {
    service,
    receiver,
    async call(operationId, raw = {}) {
      const route = service.routes.find((candidate) => candidate.operation.id === operationId);
      if (!route) throw new Error(`no operation ${operationId}`);
      const parsed = z.safeParse(route.operation.input, raw);
      if (!parsed.success) return { status: 400, body: { message: parsed.error.message } };
      return route.serve(parsed.data);
    },
    async close() {
      await service.close();
      await receiver.close();
    },
  };
}
