/**
 * Publishing the kit's events (see webhook-events.ts): nothing is built or sent while nobody
 * listens. Where the runtime has no `node:diagnostics_channel` (a Worker without Node
 * compatibility), nothing is published and nothing fails.
 */
import { WEBHOOK_CHANNELS, type WebhookEvents } from './webhook-events.js';

interface Channel {
  readonly hasSubscribers: boolean;
  publish(message: unknown): void;
}

type ChannelOf = (name: string) => Channel;

/** `node:diagnostics_channel`'s `channel`, found without a static import (Workers, browsers lack it). */
function channelFactory(): ChannelOf | undefined {
  const host = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  try {
    const module = host?.getBuiltinModule?.('node:diagnostics_channel') as
      | { channel?: ChannelOf }
      | undefined;
    return typeof module?.channel === 'function' ? module.channel : undefined;
  } catch {
    return undefined;
  }
}

let channels: { [K in keyof WebhookEvents]: Channel } | null | undefined;

function channelsOnce() {
  if (channels === undefined) {
    const channelOf = channelFactory();
    channels = channelOf
      ? {
          delivery: channelOf(WEBHOOK_CHANNELS.delivery),
          stage: channelOf(WEBHOOK_CHANNELS.stage),
          callback: channelOf(WEBHOOK_CHANNELS.callback),
          store: channelOf(WEBHOOK_CHANNELS.store),
        }
      : null;
  }
  return channels;
}

/** Whether somebody listens on `kind` now (so that what a message needs is worth keeping). */
export function listening(kind: keyof WebhookEvents): boolean {
  return channelsOnce()?.[kind].hasSubscribers === true;
}

/**
 * Publishes the message `make` builds from `input`, only when somebody listens (nothing is built
 * otherwise). A path run for every delivery passes a function made once and its `input`, so that
 * not even the function is made while nobody listens.
 */
export function publish<K extends keyof WebhookEvents, I = undefined>(
  kind: K,
  make: (input: I) => WebhookEvents[K],
  input?: I,
): void {
  const channel = channelsOnce()?.[kind];
  if (!channel?.hasSubscribers) return;
  try {
    channel.publish(make(input as I));
  } catch {
    // A message that cannot be built must not change an answer (a subscriber's own throw is
    // reported by diagnostics_channel, on the process, not here).
  }
}
