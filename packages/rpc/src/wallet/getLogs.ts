import * as z from 'zod/v4';
import type { DecodedLog, UndecodedLog } from '../contract-reads.js';
import { logFilterInput } from '../log-filter.js';
import type { Log } from '../schemas.js';
import { FIXTURE_ERC20, PING_EVENT, TRANSFER_EVENT } from './examples.js';
import { defineWalletRead, toJson } from './wallet-read.js';

type JsonLog = Record<string, unknown> &
  Partial<Pick<Log, 'blockNumber' | 'logIndex' | 'transactionHash' | 'address'>>;

export const getLogsRead = defineWalletRead({
  id: 'getLogs',
  displayName: 'Get Logs',
  description:
    'Event logs of a block range, oldest first, decoded with an event fragment when one is given; logs it does not describe stay raw (decoded: false).',
  input: z.object({
    // The filter's own fields, checked again (range limits included) by the client's getLogs.
    ...logFilterInput.shape,
    event: z.string().optional().meta({
      title: 'Event Fragment',
      description:
        'An event fragment to decode with, e.g. event Transfer(address indexed from, address indexed to, uint256 value); raw logs when left out.',
    }),
  }),
  simplified: z.array(
    z.object({
      eventName: z.string().optional(),
      args: z.record(z.string(), z.unknown()).optional(),
      decoded: z.boolean(),
      address: z.string().optional(),
      blockNumber: z.number().int().nullable(),
      transactionHash: z.string().nullable().optional(),
      logIndex: z.number().int().nullable(),
      raw: z.record(z.string(), z.unknown()),
    }),
  ),
  examples: [
    { fromBlock: '0x0', toBlock: 'latest', event: PING_EVENT },
    { fromBlock: '0x0', toBlock: 'latest', address: FIXTURE_ERC20, event: TRANSFER_EVENT },
  ],
  async run(client, input, options) {
    const { event, ...filter } = input;
    const logs: (Log | DecodedLog | UndecodedLog)[] =
      event === undefined
        ? await client.getLogs(filter, options)
        : await client.getLogs({ ...filter, event }, options);
    return logs.map((log) => toJson(log) as JsonLog);
  },
  simplify: (logs) =>
    logs.map((log) => ({
      ...(log.decoded === true
        ? { eventName: log.eventName as string, args: log.args as Record<string, unknown> }
        : {}),
      decoded: log.decoded === true,
      address: log.address,
      blockNumber: log.blockNumber === undefined || log.blockNumber === null ? null : Number(log.blockNumber),
      transactionHash: log.transactionHash,
      logIndex: log.logIndex === undefined || log.logIndex === null ? null : Number(log.logIndex),
      raw: log,
    })),
});
