import { addressesOf } from '../bitcoin/payload.js';
import type { SimTransaction } from '../bitcoin/simulator.js';
import { parseXpub, type XpubKey } from '../bitcoin/xpub.js';
import type { StreamsState, XpubRecord } from './state.js';

/** Bech32 addresses are case-insensitive; base58 ones are not. */
export function normalizeAddress(address: string): string {
  return /^bc1/i.test(address) ? address.toLowerCase() : address;
}

interface Derived {
  key: XpubKey;
  /** Derived addresses of the receive (0) and change (1) chains, by index. */
  chains: [string[], string[]];
}

/**
 * Which addresses each Bitcoin stream watches: its own, plus those derived from its xpubs
 * (receive and change chains, up to the gap limit past the last used index).
 */
export class WatchIndex {
  private readonly derived = new Map<string, Derived>();

  constructor(
    private readonly state: StreamsState,
    /** Called when a payment moves an xpub's gap window (the state changed). */
    private readonly moved: () => void = () => {},
  ) {}

  /** Derived addresses of an xpub record, extending the window to its gap limit. */
  derivedAddresses(record: XpubRecord): { receive: string[]; change: string[] } {
    const entry = this.entry(record);
    return { receive: [...entry.chains[0]], change: [...entry.chains[1]] };
  }

  /** Whether a stream matches a transaction (a watched address sends or receives it). */
  matches(streamId: string, allAddresses: boolean, tx: SimTransaction): boolean {
    const touched = addressesOf(tx).map(normalizeAddress);
    const own = new Set((this.state.addresses[streamId] ?? []).map((record) => record.address));
    let matched = allAddresses || touched.some((address) => own.has(address));
    for (const record of this.state.xpubs[streamId] ?? []) {
      if (this.markUsed(record, touched)) matched = true;
    }
    return matched;
  }

  forget(xpubId: string): void {
    this.derived.delete(xpubId);
  }

  /** True when the tx touches an address of the xpub; moves the gap window past it. */
  private markUsed(record: XpubRecord, touched: string[]): boolean {
    const entry = this.entry(record);
    let hit = false;
    for (const chain of [0, 1] as const) {
      for (const address of touched) {
        const index = entry.chains[chain].indexOf(address);
        if (index === -1) continue;
        hit = true;
        if (index + 1 > record.used[chain]) {
          record.used[chain] = index + 1;
          this.moved();
        }
      }
    }
    if (hit) this.entry(record);
    return hit;
  }

  private entry(record: XpubRecord): Derived {
    let entry = this.derived.get(record.id);
    if (!entry) {
      entry = { key: parseXpub(record.xpub), chains: [[], []] };
      this.derived.set(record.id, entry);
    }
    for (const chain of [0, 1] as const) {
      const list = entry.chains[chain];
      while (list.length < record.used[chain] + record.gap) list.push(entry.key.address(chain, list.length));
    }
    return entry;
  }
}
