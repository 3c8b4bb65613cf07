/**
 * Results are checked as strictly as the zod schemas say, however the check runs (fields compiled
 * per shape on Node.js, a string equal to one a field just passed not read again): a bad hex digit, a
 * missing field or a wrong type deep inside a transaction, a receipt or a log is refused with
 * zod's own words (the same issues zod gives for the answer), naming the field or, inside a full
 * transaction, the transaction.
 */
import { createClient, ResponseValidationError } from '@blockwire/core';
import { issueMessage } from '@blockwire/core/operations';
import { afterEach, describe, expect, it } from 'vitest';
import type * as z from 'zod/v4';
import { createRpcClient } from './create-rpc-client.js';
import { exampleReceipt, exampleTransaction } from './methods/examples.js';
import { getBlockByNumberMethod, getBlockReceiptsMethod } from './methods/index.js';
import { callsOf, json, startServer } from './testing/server.js';

type Server = Awaited<ReturnType<typeof startServer>>;
let server: Server | undefined;
const closers: (() => Promise<void>)[] = [];

afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
  await server?.close();
  server = undefined;
});

const HASH = `0x${'ab'.repeat(32)}`;
const OTHER_HASH = `0x${'cd'.repeat(32)}`;
const BLOOM = `0x${'00'.repeat(255)}10`;

function log(index: number) {
  return {
    address: '0x5fbdb2315678afecb367f032d93f642f64180aa3',
    topics: [`0x${'fe'.repeat(32)}`],
    data: `0x${'00'.repeat(12)}f39fd6e51aad88f6f4ce6ab8827279cfffb92266`,
    blockHash: HASH,
    blockNumber: '0x1',
    transactionHash: OTHER_HASH,
    transactionIndex: '0x0',
    logIndex: `0x${index.toString(16)}`,
    removed: false,
  };
}

/** A block with two full transactions and its two receipts, every field as a node sends it. */
function answers() {
  const transactions = [0, 1].map((index) => ({
    ...exampleTransaction,
    blockHash: HASH,
    hash: index === 0 ? OTHER_HASH : HASH,
    transactionIndex: `0x${index}`,
  }));
  const block = {
    difficulty: '0x0',
    extraData: '0x',
    gasLimit: '0x1c9c380',
    gasUsed: '0x15216',
    hash: HASH,
    logsBloom: BLOOM,
    miner: '0x0000000000000000000000000000000000000000',
    mixHash: HASH,
    nonce: '0x0000000000000000',
    number: '0x1',
    parentHash: HASH,
    receiptsRoot: HASH,
    sha3Uncles: HASH,
    size: '0x30f',
    stateRoot: HASH,
    timestamp: '0x6774858c',
    transactionsRoot: HASH,
    uncles: [HASH],
    withdrawals: [{ index: '0x0', validatorIndex: '0x1', address: HASH.slice(0, 42), amount: '0x2' }],
    transactions,
  };
  const receipts = [0, 1].map((index) => ({
    ...exampleReceipt,
    blockHash: HASH,
    logsBloom: BLOOM,
    transactionIndex: `0x${index}`,
    logs: [log(2 * index), log(2 * index + 1)],
  }));
  return { block, receipts };
}

type Answers = ReturnType<typeof answers>;

/** The node answers with `answers`, changed by `change`. */
async function clientAnswering(change: (answers: Answers) => void = () => {}) {
  const body = answers();
  change(body);
  server = await startServer((req, res) => {
    const replies = callsOf(req.json).map((call) => ({
      jsonrpc: '2.0',
      id: call.id,
      result: call.method === 'eth_getBlockByNumber' ? body.block : body.receipts,
    }));
    json(res, 200, Array.isArray(req.json) ? replies : replies[0]);
  });
  const client = createClient({ apiKey: 'test-key', baseUrls: { node: server.url } });
  closers.push(() => client.close());
  return { rpc: createRpcClient(client, { chain: 'eth' }), body };
}

/** What zod itself says of the answer: the issues the client's error must have. */
function zodIssues(schema: z.ZodType, value: unknown) {
  const parsed = schema.safeParse(value);
  if (parsed.success) throw new Error('zod accepts the changed answer');
  return parsed.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issueMessage(issue) }));
}

async function refusal(promise: Promise<unknown>): Promise<ResponseValidationError> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ResponseValidationError);
  return error as ResponseValidationError;
}

describe('block and receipt results', () => {
  it('pass as the node sent them, many times over (the same values each time)', async () => {
    const { rpc, body } = await clientAnswering();
    for (let round = 0; round < 3; round++) {
      const [block, receipts] = await Promise.all([rpc.getBlockByNumber(1, true), rpc.getBlockReceipts(1)]);
      expect(block).toEqual(body.block);
      expect(receipts).toEqual(body.receipts);
    }
  });

  const hexMessage = 'must be a 0x-prefixed hex string';
  // A transaction is a hash or an object (z.union): zod names the transaction that fits neither,
  // not the field inside it. The check keeps zod's words, whatever they are.
  const UNION_MESSAGE = 'Invalid input';
  const blockCases: [string, (answers: Answers) => void, string, string][] = [
    [
      "a bad last digit in a transaction's block hash (the one before it, equal up to there, passed)",
      ({ block }) => {
        block.transactions[1]!.blockHash = `${HASH.slice(0, -1)}g`;
      },
      'transactions.1',
      UNION_MESSAGE,
    ],
    [
      'an odd character in a signature',
      ({ block }) => {
        block.transactions[1]!.r = '0x12z4';
      },
      'transactions.1',
      UNION_MESSAGE,
    ],
    [
      'a missing sender',
      ({ block }) => {
        delete (block.transactions[0] as Partial<(typeof block.transactions)[0]>).from;
      },
      'transactions.0',
      UNION_MESSAGE,
    ],
    [
      'a number for a quantity',
      ({ block }) => {
        (block.transactions[1] as Record<string, unknown>).value = 10;
      },
      'transactions.1',
      UNION_MESSAGE,
    ],
    [
      'a trailing space in an uncle hash',
      ({ block }) => {
        block.uncles[0] = `${HASH} `;
      },
      'uncles.0',
      hexMessage,
    ],
    [
      "an uppercase 0X in a withdrawal's amount",
      ({ block }) => {
        block.withdrawals[0]!.amount = '0X2';
      },
      'withdrawals.0.amount',
      hexMessage,
    ],
  ];

  it.each(blockCases)('refuses %s, naming the field', async (_, change, path, message) => {
    const { rpc, body } = await clientAnswering(change);
    const error = await refusal(rpc.getBlockByNumber(1, true));
    expect(error.issues).toEqual(zodIssues(getBlockByNumberMethod.result, body.block));
    expect(error.issues).toContainEqual({ path, message });
  });

  const receiptCases: [string, (answers: Answers) => void, string, string][] = [
    [
      'a bloom equal to the previous receipt’s but for its last digit',
      ({ receipts }) => {
        receipts[1]!.logsBloom = `${BLOOM.slice(0, -1)}x`;
      },
      '1.logsBloom',
      hexMessage,
    ],
    [
      "a bad digit in a log's topic",
      ({ receipts }) => {
        receipts[0]!.logs[1]!.topics[0] = `0x${'fe'.repeat(31)}fg`;
      },
      '0.logs.1.topics.0',
      hexMessage,
    ],
    [
      "a log's data that is not a string",
      ({ receipts }) => {
        (receipts[1]!.logs[0] as Record<string, unknown>).data = ['0x00'];
      },
      '1.logs.0.data',
      hexMessage,
    ],
    [
      'a missing log address',
      ({ receipts }) => {
        delete (receipts[1]!.logs[1] as Partial<ReturnType<typeof log>>).address;
      },
      '1.logs.1.address',
      hexMessage,
    ],
    [
      "a string for a log's removed flag",
      ({ receipts }) => {
        (receipts[0]!.logs[0] as Record<string, unknown>).removed = 'false';
      },
      '0.logs.0.removed',
      'Invalid input: expected boolean, received string',
    ],
    [
      'a missing list of logs',
      ({ receipts }) => {
        delete (receipts[1] as Partial<(typeof receipts)[1]>).logs;
      },
      '1.logs',
      'Invalid input: expected array, received undefined',
    ],
  ];

  it.each(receiptCases)('refuses %s in a receipt, naming the field', async (_, change, path, message) => {
    const { rpc, body } = await clientAnswering(change);
    const error = await refusal(rpc.getBlockReceipts(1));
    expect(error.issues).toEqual(zodIssues(getBlockReceiptsMethod.result, body.receipts));
    expect(error.issues).toContainEqual({ path, message });
  });

  it('refuses a bad value after the same field passed good ones in earlier answers', async () => {
    let bad = false;
    const good = answers();
    const broken = answers();
    broken.receipts[1]!.logs[1]!.blockHash = `${HASH.slice(0, -1)}Z`;
    broken.block.transactions[1]!.blockHash = `${HASH.slice(0, -1)}Z`;
    server = await startServer((req, res) => {
      const body = bad ? broken : good;
      const replies = callsOf(req.json).map((call) => ({
        jsonrpc: '2.0',
        id: call.id,
        result: call.method === 'eth_getBlockByNumber' ? body.block : body.receipts,
      }));
      json(res, 200, Array.isArray(req.json) ? replies : replies[0]);
    });
    const client = createClient({ apiKey: 'test-key', baseUrls: { node: server.url } });
    closers.push(() => client.close());
    const rpc = createRpcClient(client, { chain: 'eth' });
    await Promise.all([rpc.getBlockByNumber(1, true), rpc.getBlockReceipts(1)]);
    bad = true;
    const [blockError, receiptsError] = await Promise.all([
      refusal(rpc.getBlockByNumber(1, true)),
      refusal(rpc.getBlockReceipts(1)),
    ]);
    expect(blockError.issues).toEqual([{ path: 'transactions.1', message: UNION_MESSAGE }]);
    expect(receiptsError.issues).toEqual([{ path: '1.logs.1.blockHash', message: hexMessage }]);
  });
});
