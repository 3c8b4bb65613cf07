/**
 * The webhook intake comparison's receivers, each built in a process of its own
 * (`client-process.ts`), so each one's CPU time is its own work and its own heap's collections.
 * A run takes one delivery `count` times, either called in process (one after another, with a turn
 * of the event loop at least every millisecond) or over HTTP, posted by a sender in a process of
 * its own to a node:http server in the receiver's; it returns deliveries per second. Each
 * receiver imports its library when it is built, so a process holds only its own receiver's code.
 */
import { createHash, getHashes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { WebhookResponse } from '@blockwire/streams/webhooks';
import { builderOf, type Client, namesOf } from '../client-process.ts';
import { WEBHOOK_SECRET } from '../fixtures.ts';
import { since } from '../harness.ts';
import { listen, sendJson } from '../servers.ts';
import { type SentDelivery, startWebhookSender } from '../webhook-sender.ts';

export const HTTP_CONCURRENCY = 4;

export interface WebhookConfig {
  deliveries: SentDelivery[];
}

export interface WebhookArgs {
  /** The index of the delivery in the config's list. */
  delivery: number;
  count: number;
  over: 'in process' | 'over HTTP';
}

interface Receiver {
  /**
   * Takes a delivery and gives its answer as its user's code gets it (a promise of the response,
   * or the parsed body at once); throws or rejects when it refuses it.
   */
  intake(raw: Buffer, signature: string): Promise<unknown> | unknown;
  /** Why that answer refused the delivery, or `undefined` when it took it. */
  refusal(answer: unknown): string | undefined;
  /** The same as a node:http listener. */
  listener(req: IncomingMessage, res: ServerResponse): void;
  /** Resolves when what the receiver left for later (the Bitcoin stage) has run. */
  idle(): Promise<void>;
}

/** `createWebhookHandler({ secret })`: JSON, signature, payload validation, the Bitcoin stage. */
async function blockwireReceiver(): Promise<Receiver> {
  const { createWebhookHandler } = await import('@blockwire/streams/webhooks');
  const handler = createWebhookHandler({
    secret: WEBHOOK_SECRET,
    onError: (error) => {
      throw error;
    },
  });
  return {
    // The handler's own promise, awaited once by the caller as a user's route would: no async
    // wrapper of the bench's around it, which the references (answering at once) do not have.
    intake: (rawBody, signature) =>
      handler({ method: 'POST', headers: { 'x-signature': signature }, rawBody }),
    refusal(answer) {
      const { status, body } = answer as WebhookResponse;
      return status === 200 && body.message === 'accepted' ? undefined : body.message;
    },
    listener: (req, res) => void handler.node(req, res),
    idle: () => handler.idle(),
  };
}

/** A reference receiver on node:http: reads the whole body, then takes it, and answers 200 or 401. */
function referenceReceiver(intake: (raw: Buffer, signature: string) => unknown): Receiver {
  return {
    intake,
    // A reference throws when it refuses: what it returns is a delivery taken.
    refusal: () => undefined,
    listener(req, res) {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        try {
          intake(Buffer.concat(chunks), String(req.headers['x-signature']));
          sendJson(res, 200, Buffer.from('{"ok":true}'));
        } catch {
          sendJson(res, 401, Buffer.from('{"ok":false}'));
        }
      });
    },
    idle: async () => {},
  };
}

/** `JSON.parse`, then `Moralis.Streams.verifySignature` (its secret from its configuration); no validation. */
async function moralisReceiver(): Promise<Receiver> {
  const { startMoralis } = await import('../moralis.ts');
  const moralis = await startMoralis('http://127.0.0.1:9/api/v2.2');
  return referenceReceiver((raw, signature) => {
    const body = JSON.parse(raw.toString('utf8'));
    moralis.Streams.verifySignature({ body, signature });
    return body;
  });
}

/** Whether this runtime's node:crypto has keccak-256 (OpenSSL 3.2+, as on Node 24.22). */
export const NATIVE_KECCAK = getHashes().includes('keccak-256');

/**
 * What a sceptic writes in a few lines: keccak256 over the raw bytes and the secret (the service
 * signs the JSON exactly as it sends it), a constant-time compare, then JSON.parse. No validation.
 * Its keccak is node:crypto's at every size, as Blockwire's is; hash-wasm's where the runtime's
 * OpenSSL has none (the comparison's note then says so).
 */
async function handRolledNativeReceiver(): Promise<Receiver> {
  const secret = Buffer.from(WEBHOOK_SECRET);
  let keccak = (raw: Buffer) => createHash('keccak-256').update(raw).update(secret).digest();
  if (!NATIVE_KECCAK) {
    const { createKeccak } = await import('hash-wasm');
    const wasm = await createKeccak(256);
    keccak = (raw) => Buffer.from(wasm.init().update(raw).update(secret).digest('binary'));
  }
  return referenceReceiver((raw, signature) => {
    const digest = keccak(raw);
    const given = Buffer.from(signature.slice(2), 'hex');
    if (given.length !== 32 || !timingSafeEqual(digest, given)) throw new Error('bad signature');
    return JSON.parse(raw.toString('utf8'));
  });
}

const receivers = {
  blockwire: blockwireReceiver,
  moralis: moralisReceiver,
  'hand-rolled-native': handRolledNativeReceiver,
} satisfies Record<string, () => Promise<Receiver>>;

export type ReceiverName = keyof typeof receivers;
/** The webhook receivers, in the order the comparison runs them. */
export const RECEIVERS = namesOf(receivers);

/**
 * One delivery after another, with a turn of the event loop at least every millisecond, as a busy
 * receiver has between the batches of requests its sockets bring: what a receiver leaves for later
 * (a callback, the Bitcoin stage) runs then, not after the last delivery. Not a turn after each
 * delivery: that costs more than a 1 KB delivery's whole intake, and would drown it.
 */
async function takeInProcess(receiver: Receiver, { raw, signature }: SentDelivery, count: number) {
  let turn = performance.now();
  for (let i = 0; i < count; i++) {
    const refused = receiver.refusal(await receiver.intake(raw, signature));
    if (refused !== undefined) throw new Error(refused);
    if (performance.now() - turn >= 1) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      turn = performance.now();
    }
  }
}

export async function makeClient(name: string, config: WebhookConfig): Promise<Client<WebhookArgs>> {
  const receiver = await builderOf(receivers, name, 'webhook receiver')();
  const deliveries = config.deliveries.map(({ raw, signature }) => ({ raw: Buffer.from(raw), signature }));
  const server = await listen(receiver.listener);
  const sender = await startWebhookSender(deliveries);
  return {
    async run({ delivery, count, over }) {
      const start = performance.now();
      if (over === 'in process') await takeInProcess(receiver, deliveries[delivery]!, count);
      else
        await sender.post({ url: `${server.url}/webhook`, delivery, count, concurrency: HTTP_CONCURRENCY });
      // Everything a delivery costs is in its run, the stage it left for later too.
      await receiver.idle();
      return count / (since(start) / 1000);
    },
    async close() {
      await receiver.idle();
      await sender.close();
      await server.close();
    },
  };
}
