// Event decoding and revert reasons against viem's encoders (an independent implementation).
import { encodeAbiParameters, encodeErrorResult, encodeEventTopics, parseAbi } from 'viem';
import { describe, expect, it } from 'vitest';
import { decodeLog } from '../contract-reads.js';
import type { Log } from '../schemas.js';
import { parseEvent, topicOf } from './fragment.js';
import { decodeRevert } from './revert.js';

const ALICE = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const BOB = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const TRANSFER = 'event Transfer(address indexed from, address indexed to, uint256 value)';
const abi = parseAbi([TRANSFER, 'event Transfer(address indexed, address indexed, uint256 indexed)']);

const logOf = (topics: readonly string[], data: string) =>
  ({ address: ALICE, topics, data }) as unknown as Log;

describe('decodeLog', () => {
  const event = parseEvent(TRANSFER, 'event', 'test');
  const topic = topicOf(event);

  it('decodes indexed topics and data by name', () => {
    const topics = encodeEventTopics({
      abi: [abi[0]],
      eventName: 'Transfer',
      args: { from: ALICE, to: BOB },
    });
    expect(topic).toBe(topics[0]);
    const log = logOf(topics as string[], encodeAbiParameters([{ type: 'uint256' }], [10n ** 18n]));
    expect(decodeLog(event, topic, log)).toMatchObject({
      decoded: true,
      eventName: 'Transfer',
      args: { from: ALICE, to: BOB, value: 10n ** 18n },
    });
  });

  it('keeps an ERC-721 Transfer (same signature, three indexed) and another event raw', () => {
    const nft = encodeEventTopics({ abi: [abi[1]], args: [ALICE, BOB, 7n] });
    const kept = decodeLog(event, topic, logOf(nft as string[], '0x'));
    expect(kept).toMatchObject({ decoded: false, reason: 'has 3 indexed topic(s); the fragment indexes 2' });
    expect(kept.topics).toEqual(nft);
    const other = decodeLog(event, topic, logOf([`0x${'11'.repeat(32)}`], '0x'));
    expect(other).toMatchObject({
      decoded: false,
      reason: expect.stringMatching(/^topic 0 is not Transfer's/),
    });
  });
});

describe('decodeRevert', () => {
  const errors = parseAbi(['error Error(string)', 'error Panic(uint256)']);
  it('decodes Error(string) and Panic(uint256); keeps a custom error raw', () => {
    const reason = encodeErrorResult({ abi: errors, errorName: 'Error', args: ['no way'] });
    expect(decodeRevert(reason)).toEqual({ reason: 'no way', panicCode: undefined, data: reason });
    const panic = encodeErrorResult({ abi: errors, errorName: 'Panic', args: [0x11n] });
    expect(decodeRevert(panic)).toMatchObject({
      reason: 'panic: arithmetic overflow or underflow',
      panicCode: 0x11,
    });
    expect(decodeRevert('0x12345678')).toEqual({
      reason: undefined,
      panicCode: undefined,
      data: '0x12345678',
    });
  });
});
