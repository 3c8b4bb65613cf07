/**
 * The Blockwire Price Trigger's poll() against the emulator, with the token's price scripted
 * one step per poll (`PUT /control/prices/{chain}/{address}`): it arms on the first poll, fires
 * once per crossing or move, keeps its state in the workflow's static data across a "restart"
 * (a new node instance given the saved static data), and prices many Solana mints in one call.
 */
import type { IDataObject } from 'n8n-workflow';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BlockwirePriceTrigger } from '../nodes/BlockwirePriceTrigger/BlockwirePriceTrigger.node';
import { credentialsFor, useEmulator } from './support/emulator';
import { pollContext } from './support/n8n-context';
import { solanaAddresses, USDC, WRAPPED_SOL } from './support/solana';

const t = useEmulator();
const LINK = '0x514910771AF9Ca656af840dff83E8264EcF986CA';
const USDT = '0xdAC17F958D2ee523a2206206994597C13D831ec7';
const JUP = 'JUPyiwrYJFskUPiHa7hkeR8VUtAeFoSYbKedZNsDvCN';

async function controlCall(method: string, path: string, body?: unknown) {
  const response = await fetch(`${t.emulator.control}${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as IDataObject;
}

/** Scripts the token's price: one step per price request of it. */
const script = (chain: string, address: string, series: number[]) =>
  controlCall('PUT', `/prices/${chain}/${address}`, { series: series.map((usd) => ({ usd })) });

beforeEach(async () => {
  await controlCall('DELETE', '/prices');
});

/** A trigger as n8n keeps it: one node instance and the workflow's static data. */
function trigger(parameters: IDataObject, staticData: IDataObject = {}, mode = 'trigger') {
  const node = new BlockwirePriceTrigger();
  const { poll, logger } = pollContext({
    parameters,
    credentials: credentialsFor(t.emulator),
    staticData,
    mode,
  });
  return {
    staticData,
    logger,
    /** One poll: the alerts it emitted (none: n8n starts no execution). */
    async poll(): Promise<IDataObject[]> {
      const result = await node.poll!.call(poll);
      return result === null ? [] : result[0]!.map((item) => item.json);
    },
  };
}

/** Polls `count` times: the alerts of each poll. */
async function pollTimes(subject: ReturnType<typeof trigger>, count: number) {
  const alerts: IDataObject[][] = [];
  for (let i = 0; i < count; i++) alerts.push(await subject.poll());
  return alerts;
}

const evm = (condition: string, extra: IDataObject) => ({
  blockchain: 'evm',
  chain: 'eth',
  addresses: LINK,
  condition,
  ...extra,
});

describe('Blockwire Price Trigger: crossings', () => {
  it('arms on the first poll and fires exactly once per crossing above', async () => {
    await script('eth', LINK, [1, 1.05, 1.2, 1.3, 0.9, 1.25, 1.25]);
    const alerts = await pollTimes(trigger(evm('crossesAbove', { threshold: 1.1 })), 7);
    expect(alerts.map((poll) => poll.length)).toEqual([0, 0, 1, 0, 0, 1, 0]);
    expect(alerts[2]![0]).toEqual({
      token: LINK,
      symbol: 'LINK',
      chain: 'eth',
      chainId: '0x1',
      price: 1.2,
      previousPrice: 1.05,
      condition: 'crossesAbove',
      threshold: 1.1,
      direction: 'up',
      changePercent: 14.285714,
      time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
    expect(alerts[5]![0]).toMatchObject({ price: 1.25, previousPrice: 0.9, direction: 'up' });
  });

  it('fires once per crossing below', async () => {
    await script('eth', LINK, [2, 1.5, 0.8, 0.7, 1.2, 0.9]);
    const alerts = await pollTimes(trigger(evm('crossesBelow', { threshold: 1 })), 6);
    expect(alerts.map((poll) => poll.length)).toEqual([0, 0, 1, 0, 0, 1]);
    expect(alerts[2]![0]).toMatchObject({ price: 0.8, previousPrice: 1.5, direction: 'down', threshold: 1 });
  });

  it('a first poll already past the level arms without firing', async () => {
    await script('eth', LINK, [2, 2.1, 2.2]);
    const alerts = await pollTimes(trigger(evm('crossesAbove', { threshold: 1 })), 3);
    expect(alerts.flat()).toEqual([]);
  });

  it('survives a restart: a new node instance with the saved static data neither re-arms nor fires twice', async () => {
    await script('eth', LINK, [1, 1.2, 1.3, 0.9, 1.4]);
    const parameters = evm('crossesAbove', { threshold: 1.1 });
    const before = trigger(parameters);
    expect(await pollTimes(before, 2)).toEqual([[], [expect.objectContaining({ price: 1.2 })]]);
    // What n8n saved to its database, read back by a fresh process.
    const saved = JSON.parse(JSON.stringify(before.staticData)) as IDataObject;
    const after = trigger(parameters, saved);
    const alerts = await pollTimes(after, 3);
    expect(alerts.map((poll) => poll.map((alert) => alert.price))).toEqual([[], [], [1.4]]);
  });

  it('arms again when the settings change (another level, chain or condition)', async () => {
    await script('eth', LINK, [1, 1.2, 1.3, 1.6]);
    const staticData: IDataObject = {};
    expect(await pollTimes(trigger(evm('crossesAbove', { threshold: 1.1 }), staticData), 2)).toEqual([
      [],
      [expect.objectContaining({ threshold: 1.1 })],
    ]);
    // Level 1.5 now: 1.3 arms (below it), 1.6 crosses.
    const moved = await pollTimes(trigger(evm('crossesAbove', { threshold: 1.5 }), staticData), 2);
    expect(moved.map((poll) => poll.map((alert) => alert.price))).toEqual([[], [1.6]]);
  });

  it('judges each token on its own; a token listed later arms on its own first poll', async () => {
    await script('eth', LINK, [1, 1.2, 1.2]);
    await script('eth', USDT, [1, 1.3]);
    const staticData: IDataObject = {};
    const one = trigger(evm('crossesAbove', { threshold: 1.1 }), staticData);
    expect(await one.poll()).toEqual([]);
    const both = trigger(evm('crossesAbove', { threshold: 1.1, addresses: `${LINK}\n${USDT}` }), staticData);
    // LINK crosses; USDT (1) arms.
    expect((await both.poll()).map((alert) => alert.symbol)).toEqual(['LINK']);
    expect((await both.poll()).map((alert) => alert.symbol)).toEqual(['USDT']);
  });
});

describe('Blockwire Price Trigger: percentage moves', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('moves more than X % since the last alert: measured from the armed price, then from each alert', async () => {
    await script('eth', LINK, [100, 104, 106, 110, 99, 99]);
    const alerts = await pollTimes(trigger(evm('movesSinceAlert', { percent: 5 })), 6);
    expect(
      alerts.map((poll) => poll.map((alert) => [alert.previousPrice, alert.price, alert.direction])),
    ).toEqual([[], [], [[100, 106, 'up']], [], [[106, 99, 'down']], []]);
    expect(alerts[2]![0]).toMatchObject({ condition: 'movesSinceAlert', threshold: 5, changePercent: 6 });
  });

  it('moves more than X % over a window: measured from the earliest price polled within the last N minutes', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const start = Date.parse('2026-01-01T00:00:00Z');
    await script('eth', LINK, [100, 103, 104, 108, 110, 111]);
    const subject = trigger(evm('movesOverWindow', { percent: 5, windowMinutes: 10 }));
    const at = async (minute: number) => {
      vi.setSystemTime(start + minute * 60_000);
      return (await subject.poll()).map((alert) => [alert.previousPrice, alert.price]);
    };
    expect(await at(0)).toEqual([]); // armed at 100
    expect(await at(5)).toEqual([]); // 103: +3 % on 100
    expect(await at(10)).toEqual([]); // 104: +4 % on 100
    // 108 is +8 % on 100, but 100 (minute 0) left the window: +3.8 % on 104 (minute 10).
    expect(await at(16)).toEqual([]);
    expect(await at(17)).toEqual([[104, 110]]); // +5.8 % on 104
    expect(await at(18)).toEqual([]); // the move started a new window: 111 on 110
  });
});

describe('Blockwire Price Trigger: Solana', () => {
  it('prices many mints in one batched call per poll and fires for the mint that crosses', async () => {
    await script('solana', USDC, [1, 1.2, 1.2]);
    await script('solana', JUP, [0.82, 0.9, 1.3]);
    const unknown = solanaAddresses(57);
    const mints = [USDC, JUP, WRAPPED_SOL, ...unknown];
    await controlCall('DELETE', '/requests');
    const subject = trigger({
      blockchain: 'solana',
      network: 'mainnet',
      mints: mints.join('\n'),
      condition: 'crossesAbove',
      threshold: 1.1,
    });
    const alerts = await pollTimes(subject, 3);
    expect(alerts.map((poll) => poll.map((alert) => alert.symbol))).toEqual([[], ['USDC'], ['JUP']]);
    expect(alerts[1]![0]).toMatchObject({ token: USDC, chain: 'solana', network: 'mainnet', price: 1.2 });
    const { requests } = (await (await fetch(`${t.emulator.control}/requests?interface=solana`)).json()) as {
      requests: { operation?: string }[];
    };
    expect(requests.map((request) => request.operation)).toEqual(Array(3).fill('getSolanaTokenPrices'));
    // Mints without a price are skipped and said so, not fatal.
    expect(subject.logger.warnings.at(-1)).toContain(unknown[0]);
  });

  it('fails the poll naming the mints when none has a price', async () => {
    const subject = trigger({ blockchain: 'solana', mints: solanaAddresses(2).join(','), threshold: 1 });
    await expect(subject.poll()).rejects.toThrow(/^No price on Solana mainnet for /);
  });
});

describe('Blockwire Price Trigger: manual test and bad input', () => {
  it('a manual test returns a sample alert per token and changes no state', async () => {
    await script('eth', LINK, [1, 1.2, 1.3]);
    const staticData: IDataObject = {};
    const armed = trigger(evm('crossesAbove', { threshold: 1.1 }), staticData);
    expect(await armed.poll()).toEqual([]);
    const saved = JSON.stringify(staticData);
    const sample = await trigger(evm('crossesAbove', { threshold: 1.1 }), staticData, 'manual').poll();
    expect(sample).toEqual([
      expect.objectContaining({
        token: LINK,
        price: 1.2,
        previousPrice: 1,
        condition: 'crossesAbove',
        direction: 'up',
      }),
    ]);
    expect(JSON.stringify(staticData)).toBe(saved);
    // The armed trigger still sees 1 as its last price: 1.3 crosses now.
    expect((await armed.poll()).map((alert) => alert.previousPrice)).toEqual([1]);
  });

  it('names the parameter and the entry of a bad value', async () => {
    await expect(trigger(evm('crossesAbove', { threshold: 1, addresses: '' })).poll()).rejects.toThrow(
      'Token Addresses: give at least one token contract address',
    );
    await expect(
      trigger(evm('crossesAbove', { threshold: 1, addresses: `${LINK}, 0x12` })).poll(),
    ).rejects.toThrow(/^Token Addresses \(entry 2\)/);
    await expect(trigger(evm('movesSinceAlert', { percent: -1 })).poll()).rejects.toThrow(
      'Change (%) must be a number of at least 0',
    );
    await expect(trigger(evm('sometimes', {})).poll()).rejects.toThrow(
      'Condition: unknown condition "sometimes"',
    );
  });
});
