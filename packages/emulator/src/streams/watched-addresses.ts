import { randomUUID } from 'node:crypto';
import type {
  addBitcoinStreamAddressOperation,
  addBitcoinStreamXpubOperation,
  removeBitcoinStreamAddressOperation,
  removeBitcoinStreamXpubOperation,
} from '@blockwire/streams/operations';
import { parseXpub } from '../bitcoin/xpub.js';
import { badRequest, type HandlerInput as In, notFound } from '../handlers/define.js';
import type { BitcoinStreams } from './bitcoin-streams.js';
import type { StreamsState, XpubRecord } from './state.js';
import { now } from './status.js';
import { normalizeAddress, type WatchIndex } from './watch.js';

/** What a Bitcoin stream watches: its addresses and its xpubs (with the addresses derived from them). */
export class WatchedAddresses {
  constructor(
    private readonly state: StreamsState,
    private readonly watch: WatchIndex,
    private readonly streams: BitcoinStreams,
  ) {}

  addAddress(input: In<typeof addBitcoinStreamAddressOperation>) {
    const stream = this.streams.requireStream(input.id);
    const address = normalizeAddress(input.address);
    this.state.addresses[stream.id] ??= [];
    const list = this.state.addresses[stream.id]!;
    if (!list.some((record) => record.address === address)) list.push({ address, createdAt: now() });
    stream.updatedAt = now();
    return { streamId: stream.id, address, amountOfAddresses: list.length };
  }

  removeAddress(input: In<typeof removeBitcoinStreamAddressOperation>) {
    const stream = this.streams.requireStream(input.id);
    const address = normalizeAddress(input.address);
    const list = this.state.addresses[stream.id] ?? [];
    const index = list.findIndex((record) => record.address === address);
    if (index === -1) throw notFound(`address: ${address} is not watched by stream ${stream.id}`);
    list.splice(index, 1);
    stream.updatedAt = now();
    return { streamId: stream.id, address, amountOfAddresses: list.length };
  }

  addXpub(input: In<typeof addBitcoinStreamXpubOperation>) {
    const stream = this.streams.requireStream(input.id);
    const { xpub } = input;
    let key: ReturnType<typeof parseXpub>;
    try {
      key = parseXpub(xpub);
    } catch (error) {
      throw badRequest(`xpub ${(error as Error).message}`);
    }
    this.state.xpubs[stream.id] ??= [];
    const list = this.state.xpubs[stream.id]!;
    let record = list.find((candidate) => candidate.xpub === xpub);
    if (!record) {
      record = {
        id: randomUUID(),
        xpub,
        addressType: key.addressType,
        gap: 20,
        used: [0, 0],
        createdAt: now(),
      };
      list.push(record);
      stream.updatedAt = now();
    }
    return this.xpubJson(stream.id, record);
  }

  removeXpub(input: In<typeof removeBitcoinStreamXpubOperation>) {
    const stream = this.streams.requireStream(input.id);
    const list = this.state.xpubs[stream.id] ?? [];
    const index = list.findIndex((record) => record.id === input.xpubId);
    if (index === -1) throw notFound(`xpubId: no xpub ${input.xpubId} on stream ${stream.id}`);
    const [record] = list.splice(index, 1);
    const json = this.xpubJson(stream.id, record!);
    this.watch.forget(record!.id);
    stream.updatedAt = now();
    return json;
  }

  xpubJson(streamId: string, record: XpubRecord) {
    const derived = this.watch.derivedAddresses(record);
    return {
      id: record.id,
      streamId,
      xpub: record.xpub,
      addressType: record.addressType,
      gap: record.gap,
      createdAt: record.createdAt,
      receiveAddresses: derived.receive,
      changeAddresses: derived.change,
    };
  }
}
