/**
 * The sender of the webhook intake bench's HTTP cases, in a child process: the receivers are
 * what is measured, so the client that posts to them must not be in the receiving process's CPU
 * time (nor queue behind it for the event loop). `startWebhookSender` starts it; each `post`
 * sends one delivery `count` times, `concurrency` at a time, and resolves when every answer came.
 *
 *   node src/webhook-sender.ts   (with an IPC channel; the parent sends the deliveries)
 */
import { spawn } from 'node:child_process';
import type { Pool } from 'undici';
import { hasExited } from './client-process.ts';
import { pinServer } from './machine.ts';

export interface SentDelivery {
  raw: Buffer;
  signature: string;
}

interface PostRequest {
  url: string;
  delivery: number;
  count: number;
  concurrency: number;
}

export interface WebhookSender {
  /** Posts delivery number `delivery` (of those it was started with) `count` times to `url`. */
  post(request: PostRequest): Promise<void>;
  close(): Promise<void>;
}

export async function startWebhookSender(deliveries: readonly SentDelivery[]): Promise<WebhookSender> {
  const child = spawn(process.execPath, [new URL(import.meta.url).pathname], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    serialization: 'advanced',
  });
  pinServer(child.pid);
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  const answer = () =>
    new Promise<void>((resolve, reject) => {
      const onMessage = (message: { done?: true; error?: string }) => {
        child.off('exit', onExit);
        if (message.error !== undefined) reject(new Error(`the webhook sender: ${message.error}`));
        else resolve();
      };
      const onExit = (code: number | null) => {
        child.off('message', onMessage);
        reject(new Error(`the webhook sender exited (${code})`));
      };
      child.once('message', onMessage);
      child.once('exit', onExit);
    });
  const ready = answer();
  child.send({ deliveries });
  await ready;
  return {
    post(request) {
      const done = answer();
      child.send({ post: request });
      return done;
    },
    async close() {
      process.off('exit', killOnExit);
      if (hasExited(child)) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.disconnect();
      await exited;
    },
  };
}

async function serve(): Promise<void> {
  // Imported here: a receiver process that starts a sender loads none of the sender's code.
  const { Pool } = await import('undici');
  let deliveries: SentDelivery[] = [];
  const pools = new Map<string, Pool>();
  const post = async ({ url, delivery, count, concurrency }: PostRequest) => {
    const { raw, signature } = deliveries[delivery]!;
    const { origin, pathname } = new URL(url);
    const pool = pools.get(origin) ?? new Pool(origin, { connections: concurrency });
    pools.set(origin, pool);
    const headers = { 'content-type': 'application/json', 'x-signature': signature };
    let next = 0;
    const worker = async () => {
      while (next++ < count) {
        const response = await pool.request({ path: pathname, method: 'POST', headers, body: raw });
        await response.body.text();
        if (response.statusCode !== 200) throw new Error(`status ${response.statusCode}`);
      }
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
  };
  process.on('message', (message: { deliveries?: SentDelivery[]; post?: PostRequest }) => {
    if (message.deliveries) {
      deliveries = message.deliveries.map(({ raw, signature }) => ({ raw: Buffer.from(raw), signature }));
      process.send!({ done: true });
    } else if (message.post) {
      post(message.post).then(
        () => process.send!({ done: true }),
        (error: unknown) => process.send!({ error: String(error) }),
      );
    }
  });
  process.on('disconnect', () => {
    void Promise.all([...pools.values()].map((pool) => pool.close())).finally(() => process.exit(0));
  });
}

if (process.argv[1] && import.meta.filename === process.argv[1]) await serve();
