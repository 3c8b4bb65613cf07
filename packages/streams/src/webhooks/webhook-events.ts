/**
 * What the webhook kit tells an operator, as `node:diagnostics_channel` messages: one per
 * delivery answered, per stage a transaction moved to, per callback that failed or ran again, and
 * per change of the PostgreSQL store's connection. Subscribe with
 * `diagnostics_channel.subscribe(WEBHOOK_CHANNELS.delivery, (message) => …)`. The names and
 * message types, with no runtime (the runtime-free entry holds them); publishing is events.ts.
 */
import type { BitcoinDeliveryStage } from './payloads.js';

export const WEBHOOK_CHANNELS = {
  delivery: 'blockwire:webhook:delivery',
  stage: 'blockwire:webhook:stage',
  callback: 'blockwire:webhook:callback',
  store: 'blockwire:webhook:store',
} as const;

/** Why a request was not taken as a delivery (or taken but not read). */
export type DeliveryRefusal =
  | 'wrong-method'
  | 'missing-signature'
  | 'malformed-signature'
  | 'bad-signature'
  | 'not-json'
  | 'too-large'
  | 'invalid-payload'
  | 'store-failed'
  | 'receiver-failed';

export interface DeliveryEvent {
  /**
   * `accepted`: a delivery taken (a `duplicate` one changed nothing); `verification`: the
   * verification POST; `refused`: answered 4xx; `failed`: answered 500, so the service delivers it
   * again; `unreadable`: signed but its payload breaks the contract, answered 200 and reported.
   */
  outcome: 'accepted' | 'verification' | 'refused' | 'failed' | 'unreadable';
  status: number;
  reason?: DeliveryRefusal;
  kind?: 'bitcoin' | 'evm';
  /** With a tracker: a Bitcoin delivery seen before, which changed nothing. */
  duplicate?: boolean;
  streamId?: string;
  stage?: BitcoinDeliveryStage;
}

export interface StageEvent {
  txid: string;
  from: BitcoinDeliveryStage | null;
  to: BitcoinDeliveryStage;
  deliveryId: string | undefined;
}

export interface CallbackEvent {
  kind: 'bitcoin' | 'evm';
  /** `failed`: your callback threw; `resumed`: a delivery whose callback never finished runs it again. */
  outcome: 'failed' | 'resumed';
  deliveryId: string | undefined;
  /** The class of what the callback threw (`failed`). */
  errorType?: string;
}

export interface StoreEvent {
  store: 'postgres';
  /**
   * `connection-lost`: the owner session (the lock other receivers see this one alive by) dropped;
   * `connection-regained`: a new one is open, under a new `owner` (`from` is the lost one);
   * `takeover`: this store took over the deliveries of `from`, an owner whose session is gone.
   */
  event: 'connection-lost' | 'connection-regained' | 'takeover';
  owner: number;
  from?: number;
}

export interface WebhookEvents {
  delivery: DeliveryEvent;
  stage: StageEvent;
  callback: CallbackEvent;
  store: StoreEvent;
}
