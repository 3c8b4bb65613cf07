/* eslint-disable @n8n/community-nodes/no-restricted-imports --
   Test code: runs in vitest, never inside n8n (package.json#files is dist). */
/**
 * The package inside a real n8n (2.41.1, installed once per user into ~/.cache/blockwire, see
 * e2e/install-n8n.ts), with the emulator behind the credentials: the credential test, and the
 * trigger activated through n8n's public API, fed by the Bitcoin simulator, through a proxy that
 * loses deliveries.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { type Client, createClient } from '@blockwire/core';
import { type Emulator, SEEDED_EVM_STREAM_IDS } from '@blockwire/emulator';
import { getSolanaTokenPrices } from '@blockwire/prices';
import { createRpcClient } from '@blockwire/rpc';
import { getBitcoinStream, listBitcoinStreams, signBody } from '@blockwire/streams';
import { skipped } from '@blockwire/testing/skips';
import type { INodeTypeDescription } from 'n8n-workflow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FaultProxy, startFaultProxy } from '../e2e/fault-proxy.ts';
import { type Execution, itemsOf, waitFor } from '../e2e/n8n.ts';
import {
  actionNode,
  credentialImport,
  type ExampleValues,
  headerAuthCredentialImport,
  manualTrigger,
  resourceWorkflows,
  solanaBatchWorkflow,
  solanaHttpRequestAggregateWorkflow,
  solanaHttpRequestWorkflow,
  triggerNode,
  type Workflow,
  workflow,
} from '../e2e/workflows.ts';
import { NODE_ACTIONS } from '../nodes/Blockwire/actions';
import { collectionOf } from '../nodes/Blockwire/description';
import { control, credentialsFor } from './support/emulator';
import { useN8nWithEmulator } from './support/n8n';
import { collectionOption } from './support/options';
import { solanaBatchAddresses, USDC, WRAPPED_SOL } from './support/solana';

const WATCHED = 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu';
const CREDENTIAL = { id: 'blockwireEmulator', name: 'Blockwire (emulator)' };
/** n8n's Header Auth credential with the emulator key, for its HTTP Request node. */
const HEADER_CREDENTIAL = { id: 'solanaHeaderAuth', name: 'Solana API key' };
const TRIGGER_WORKFLOW_ID = 'bwBitcoinTrigger';
const WEBHOOK_ID = randomUUID();
const STAGES = ['mempool', 'in-block', 'confirmed'];

let client: Client;
let proxy: FaultProxy;
let receiver: Server;
/** A service that ignores `page`: every request for a category's entities gets the same full page. */
let ignoresPage: Server;
const ignoredPageRequests: string[] = [];
const IGNORES_PAGE_CREDENTIAL = { id: 'blockwireIgnoresPage', name: 'Blockwire (ignores page)' };
let actionWorkflows: Record<string, Workflow>;
const batchAddresses = solanaBatchAddresses(1_000);

// Registered before n8n's set-up: the workflows name these servers, n8n's webhook URL is the proxy's.
beforeAll(async () => {
  receiver = createServer((req, res) => req.resume().on('end', () => res.writeHead(200).end()));
  ignoresPage = createServer((req, res) => {
    ignoredPageRequests.push(req.url ?? '');
    const size = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('limit') ?? 100);
    const result = Array.from({ length: size }, (_, index) => ({
      id: `entity-${index}`,
      name: `Entity ${index}`,
    }));
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ result, page: 0, pageSize: size }));
  });
  await new Promise<void>((resolve) => ignoresPage.listen(0, '127.0.0.1', resolve));
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  proxy = await startFaultProxy(() => (n8n.ready ? n8n.environment.url : 'http://127.0.0.1:9'));
});

afterAll(async () => {
  await proxy?.close();
  await new Promise((resolve) => receiver?.close(resolve));
  await new Promise((resolve) => ignoresPage?.close(resolve));
});

// anvil included (the default): the JSON-RPC actions run against it.
const n8n = useN8nWithEmulator({
  credential: CREDENTIAL,
  webhookUrl: () => proxy.url,
  imports: async (emulator) => {
    const { height } = (await control(emulator, '/bitcoin/mine', { blocks: 1 })) as { height: number };
    actionWorkflows = actionWorkflowsFor(emulator, {
      webhookUrl: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/bitcoin`,
      evmStreamId: SEEDED_EVM_STREAM_IDS[0]!,
      bitcoinBlock: height,
      transactionHash: emulator.chain!.transactionHashes[0]!,
      contract: emulator.chain!.contract,
      accounts: emulator.chain!.accounts,
      token: emulator.chain!.contracts.tokens.BlockwireToken.address,
    });
    return {
      credentials: [
        credentialImport(IGNORES_PAGE_CREDENTIAL, {
          ...credentialsFor(emulator),
          evmBaseUrl: `http://127.0.0.1:${(ignoresPage.address() as AddressInfo).port}`,
        }),
        headerAuthCredentialImport(HEADER_CREDENTIAL, { name: 'X-Api-Key', value: emulator.apiKey }),
      ],
      workflows: [
        workflow(TRIGGER_WORKFLOW_ID, 'Bitcoin payments to the treasury', [
          triggerNode({
            prefix: 'CUSTOM.',
            credential: CREDENTIAL,
            webhookId: WEBHOOK_ID,
            parameters: { mode: 'bitcoin', addresses: WATCHED, stages: STAGES, options: { tag: 'e2e' } },
          }),
        ]),
        ...Object.values(actionWorkflows),
      ],
    };
  },
});

// After n8n's set-up: a plain SDK client to look at the emulator's state.
beforeAll(() => {
  if (n8n.ready)
    client = createClient({ apiKey: n8n.emulator.apiKey, baseUrls: n8n.emulator.urls, retry: false });
});

afterAll(async () => {
  await client?.close();
});

/** The workflows running every action, one per resource, and the batching comparisons. */
function actionWorkflowsFor(emulator: Emulator, values: ExampleValues): Record<string, Workflow> {
  return {
    ...resourceWorkflows('CUSTOM.', CREDENTIAL, values),
    solanaBatch: solanaBatchWorkflow('CUSTOM.', CREDENTIAL, batchAddresses),
    unsetOptions: unsetOptionsWorkflow(),
    ignoredPage: workflow('bwIgnoredPage001', 'Blockwire: Return All against a service that ignores page', [
      manualTrigger(),
      actionNode('CUSTOM.', IGNORES_PAGE_CREDENTIAL, 'Exchanges, all pages', {
        resource: 'entity',
        operation: 'getByCategory',
        categoryId: 'exchanges',
        returnAll: true,
      }),
    ]),
    // The reference of the benchmark that compares the two (bench/, comparison n8n-items).
    solanaHttpRequest: solanaHttpRequestWorkflow({
      solanaUrl: emulator.urls.solana,
      credential: HEADER_CREDENTIAL,
      addresses: batchAddresses,
    }),
    // The same, batched with n8n's Loop Over Items and Aggregate nodes (reference http-request-aggregate).
    solanaHttpRequestAggregate: solanaHttpRequestAggregateWorkflow({
      solanaUrl: emulator.urls.solana,
      credential: HEADER_CREDENTIAL,
      addresses: batchAddresses,
    }),
  };
}

/** Every item the trigger emitted, oldest execution first. */
async function triggerItems(): Promise<Record<string, unknown>[]> {
  const executions: Execution[] = await n8n.api.executions(TRIGGER_WORKFLOW_ID);
  return executions.flatMap((execution) => itemsOf(execution, 'Blockwire Trigger'));
}

/**
 * Resolves once nothing more can reach the trigger: the emulator saw a 200 for every delivery it
 * made (so it retries none) and n8n finished every execution they started.
 */
async function untilSettled(): Promise<void> {
  await waitFor(
    'a 200 for every delivery to the trigger',
    async () => {
      const response = await fetch(`${n8n.emulator.control}/deliveries`);
      const attempts = (
        (await response.json()) as { deliveries: { delivery: number; url: string; delivered: boolean }[] }
      ).deliveries.filter((attempt) => attempt.url.endsWith(webhookPath));
      const answered = new Set(
        attempts.filter((attempt) => attempt.delivered).map((attempt) => attempt.delivery),
      );
      return attempts.every((attempt) => answered.has(attempt.delivery)) ? true : undefined;
    },
    90_000,
  );
  await waitFor('every execution finished', async () => {
    const executions = await n8n.api.executions(TRIGGER_WORKFLOW_ID);
    const running = new Set(['new', 'running', 'waiting']);
    return executions.every((execution) => !running.has(execution.status)) ? true : undefined;
  });
}

async function waitForItems(
  count: number,
  filter: (item: Record<string, unknown>) => boolean,
  timeoutMs = 60_000,
) {
  return await waitFor(
    `${count} trigger items`,
    async () => {
      const items = (await triggerItems()).filter(filter);
      return items.length >= count ? items : undefined;
    },
    timeoutMs,
    500,
  );
}

const webhookPath = `/webhook/${WEBHOOK_ID}/webhook`;

describe.skipIf(skipped('n8n'))('n8n-nodes-blockwire in a real n8n', () => {
  it('the credential test passes with the emulator key and fails with another, without echoing it', async () => {
    const data = { ...credentialsFor(n8n.emulator) };
    const good = (await n8n.api.rest('POST', '/rest/credentials/test', {
      credentials: { ...CREDENTIAL, type: 'blockwireApi', data },
    })) as { status: string; message: string };
    expect(good.status).toBe('OK');
    const wrongKey = ['not', 'the', 'emulator', 'key'].join('-');
    const bad = (await n8n.api.rest('POST', '/rest/credentials/test', {
      credentials: { ...CREDENTIAL, type: 'blockwireApi', data: { ...data, apiKey: wrongKey } },
    })) as { status: string; message: string };
    expect(bad.status).toBe('Error');
    expect(bad.message).not.toContain(wrongKey);
  });

  it('activation (public API) creates a stream for n8n’s webhook URL, and the verification POST gets 200', async () => {
    await n8n.api.publicApi('POST', `/workflows/${TRIGGER_WORKFLOW_ID}/activate`);
    // The public API answers before n8n has run the trigger's create(): wait for its effects.
    const stream = await waitFor('the stream with its address', async () => {
      const { result } = await listBitcoinStreams(client, { limit: 100 });
      return result.find(
        (candidate) =>
          candidate.webhookUrl === `${proxy.url.replace(/\/$/, '')}${webhookPath}` &&
          candidate.amountOfAddresses === 1,
      );
    });
    expect(stream).toMatchObject({ tag: 'e2e', includeOutputs: true, allAddresses: false });
    const verification = await waitFor('the verification POST to be answered', async () =>
      proxy.log.find(
        (request) => request.path === webhookPath && request.bodyBytes === 0 && request.status !== 0,
      ),
    );
    expect(verification.status).toBe(200);
    expect((await getBitcoinStream(client, { id: stream.id })).status).toBe('active');
    // Nothing ran for the verification POST.
    expect(await triggerItems()).toEqual([]);
  });

  it('a payment goes mempool → in block → confirmed: one execution item per stage, in that order, once each', async () => {
    const { txid } = (await control(n8n.emulator, '/bitcoin/transactions', {
      to: WATCHED,
      amountBtc: '0.0125',
    })) as {
      txid: string;
    };
    await waitForItems(1, (item) => item.txid === txid);
    await control(n8n.emulator, '/bitcoin/mine', { blocks: 1 });
    await waitForItems(2, (item) => item.txid === txid);
    await control(n8n.emulator, '/bitcoin/mine', { blocks: 2 });
    const items = await waitForItems(3, (item) => item.txid === txid);
    await untilSettled(); // anything after this would be a duplicate
    const final = (await triggerItems()).filter((item) => item.txid === txid);
    expect(final.map((item) => item.stage)).toEqual(STAGES);
    expect(final).toEqual(items);
    const [mempool, inBlock, confirmed] = final as [
      Record<string, unknown>,
      Record<string, unknown>,
      Record<string, unknown>,
    ];
    expect(mempool).toMatchObject({
      confirmed: false,
      blockHeight: null,
      blockHash: null,
      isCoinbase: false,
      tag: 'e2e',
    });
    expect(inBlock).toMatchObject({ confirmed: false, isCoinbase: false });
    expect(confirmed).toMatchObject({
      confirmed: true,
      blockHeight: inBlock.blockHeight,
      blockHash: inBlock.blockHash,
    });
    expect(typeof inBlock.blockHeight).toBe('number');
    for (const item of final) {
      expect(item.outputs).toContainEqual(
        expect.objectContaining({ address: WATCHED, valueBtc: 0.0125, valueSats: 1_250_000 }),
      );
      expect(Number.isInteger(item.valueSats)).toBe(true);
      expect(item.valueBtc).toBe(Number(item.valueSats) / 1e8);
      // What the watched address received, beside the whole transaction's value (issue 21, point 9).
      expect(item).toMatchObject({ receivedSats: 1_250_000, receivedBtc: 0.0125 });
    }
  }, 120_000);

  it('a forged delivery is refused with 401 and starts nothing', async () => {
    const before = (await triggerItems()).length;
    const payload = {
      streamId: randomUUID(),
      chainId: 'mainnet',
      confirmed: true,
      retries: 0,
      block: { height: '900000', hash: '00'.repeat(32) },
      transactions: [{ txid: 'ab'.repeat(32), vin: [], vout: [], value: 21, fee: 0 }],
    };
    const body = JSON.stringify(payload);
    for (const signature of [undefined, await signBody(body, 'not the secret')]) {
      const response = await fetch(`${proxy.url.replace(/\/$/, '')}${webhookPath}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(signature ? { 'x-signature': signature } : {}) },
        body,
      });
      expect(response.status).toBe(401);
    }
    // n8n starts a webhook's execution before it answers it: after the 401, none can come.
    expect((await triggerItems()).length).toBe(before);
  });

  it('with 20 % of deliveries lost (before n8n, or after it ran), every payment reaches n8n exactly once per stage', async () => {
    const executedBefore = new Set(
      (await n8n.api.executions(TRIGGER_WORKFLOW_ID)).map((execution) => execution.id),
    );
    proxy.setFaultRate(0.2);
    const txids: string[] = [];
    for (let i = 0; i < 8; i++) {
      const { txid } = (await control(n8n.emulator, '/bitcoin/transactions', {
        to: WATCHED,
        amountBtc: `0.00${i + 1}`,
      })) as { txid: string };
      txids.push(txid);
    }
    await control(n8n.emulator, '/bitcoin/mine', { blocks: 1 });
    await control(n8n.emulator, '/bitcoin/mine', { blocks: 2 });
    const ours = (item: Record<string, unknown>) => txids.includes(item.txid as string);
    await waitForItems(txids.length * 3, ours, 90_000);
    // Retries of deliveries whose answer was lost come 0.5–8 s later: wait until none is left.
    await untilSettled();
    proxy.setFaultRate(0);
    const items = (await triggerItems()).filter(ours);
    const seen = items.map((item) => `${item.txid} ${item.stage}`).sort();
    expect(seen).toEqual(txids.flatMap((txid) => STAGES.map((stage) => `${txid} ${stage}`)).sort());
    for (const txid of txids) {
      expect(items.filter((item) => item.txid === txid).map((item) => item.stage)).toEqual(STAGES);
    }
    const faults = proxy.log.filter((request) => request.fault && request.path === webhookPath);
    // Both kinds happened: n8n ran a delivery whose 200 was lost (and then saw it again), and missed one.
    expect(faults.some((request) => request.fault === 'lost-answer' && request.upstreamStatus === 200)).toBe(
      true,
    );
    expect(faults.some((request) => request.fault === 'lost-request')).toBe(true);
    // A delivery n8n ran whose 200 was lost comes again: in regular mode the webhook answers it
    // without starting an execution (issue 21, point 11). Each one used to leave an empty execution.
    const lostAnswers = faults.filter(
      (request) => request.fault === 'lost-answer' && request.upstreamStatus === 200,
    );
    const emptyExecutions = (await n8n.api.executions(TRIGGER_WORKFLOW_ID)).filter(
      (execution) =>
        !executedBefore.has(execution.id) && itemsOf(execution, 'Blockwire Trigger').length === 0,
    );
    expect(emptyExecutions.length).toBeLessThan(lostAnswers.length);
  }, 180_000);

  it('deactivation deletes the stream', async () => {
    const { result } = await listBitcoinStreams(client, { limit: 100 });
    const ids = result
      .filter((stream) => stream.webhookUrl?.endsWith(webhookPath))
      .map((stream) => stream.id);
    expect(ids).toHaveLength(1);
    await n8n.api.publicApi('POST', `/workflows/${TRIGGER_WORKFLOW_ID}/deactivate`);
    // n8n removes the webhooks after it answered the deactivation.
    const gone = await waitFor('the stream to be deleted', async () =>
      getBitcoinStream(client, { id: ids[0]! }).then(
        () => undefined,
        (error: unknown) => error,
      ),
    );
    expect(gone).toMatchObject({ status: 404 });
  });
});

/** wei as ETH, every digit kept (`1.5`, `10000`). */
function etherOf(wei: bigint): string {
  const text = wei.toString().padStart(19, '0');
  const fraction = text.slice(-18).replace(/0+$/, '');
  return fraction ? `${text.slice(0, -18)}.${fraction}` : text.slice(0, -18);
}

/**
 * Options the user added in the editor and left as they are: n8n saves each with its default
 * (issue 21, point 2). To Block saved as 0 asked for block 0 (a 404).
 */
function unsetOptionsWorkflow(): Workflow {
  const addedAsIs = (resource: string, operation: string, name: string) => {
    const action = NODE_ACTIONS.find(
      (candidate) => candidate.resource === resource && candidate.action === operation,
    )!;
    return { [collectionOf(action)]: { [name]: collectionOption(resource, operation, name).default } };
  };
  return workflow('bwUnsetOptions01', 'Blockwire: options added and left as they are', [
    manualTrigger(),
    actionNode('CUSTOM.', CREDENTIAL, 'USDC, To Block added', {
      resource: 'tokenPrice',
      operation: 'getEvm',
      address: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48',
      ...addedAsIs('tokenPrice', 'getEvm', 'toBlock'),
    }),
    // Saved before Chain moved to the top (version 1): its Options → Chain still counts.
    actionNode(
      'CUSTOM.',
      CREDENTIAL,
      'WETH on Polygon, a version-1 node',
      {
        resource: 'tokenPrice',
        operation: 'getEvm',
        address: '0x7ceb23fd6bc0add59e62ac25578270cff1b9f619',
        options: { chain: 'polygon' },
      },
      1,
    ),
  ]);
}

// Each `n8n execute` starts an n8n process: seconds alone, more beside a full test run.
describe.skipIf(skipped('n8n'))(
  'the Blockwire node in a real n8n: one workflow per resource runs every operation (n8n execute)',
  {
    timeout: 180_000,
  },
  () => {
    it('as an AI tool: n8n builds Blockwire Tool with the generated description of each operation, and none of its own', async () => {
      const output = join(n8n.environment.root, 'node-types.json');
      const result = await n8n.cli(['export:nodes', `--output=${output}`]);
      expect(result.code, result.stderr).toBe(0);
      const types = JSON.parse(readFileSync(output, 'utf8')) as INodeTypeDescription[];
      const tool = types.find((type) => type.name === 'CUSTOM.blockwireTool');
      expect(tool?.version).toEqual([1, 2]);
      const descriptions = (tool?.properties ?? []).filter((property) => property.name === 'toolDescription');
      expect(descriptions).toHaveLength(NODE_ACTIONS.length);
      expect(tool?.properties.some((property) => property.name === 'descriptionType')).toBe(false);
      const getEvm = descriptions.find((property) =>
        property.displayOptions?.show?.operation?.includes('getEvm'),
      );
      expect(String(getEvm?.default)).toMatch(
        /^Get the USD price of an ERC-20 token.*\nReturns: an object \(usdPrice/s,
      );
    });

    it('token prices: EVM by chain name and by hex id, Solana', async () => {
      const output = await n8n.execute(actionWorkflows.tokenPrice!.id);
      expect(output('USDC on Ethereum')[0]).toMatchObject({ usdPrice: expect.any(Number) });
      expect(output('WETH on Polygon by chain id')[0]).toMatchObject({ usdPrice: expect.any(Number) });
      expect(output('Solana prices').map((item) => item.tokenAddress)).toEqual([USDC, WRAPPED_SOL]);
    });

    it('1,000 items asking Solana prices make 10 HTTP calls', async () => {
      await fetch(`${n8n.emulator.control}/requests`, { method: 'DELETE' });
      const output = await n8n.execute(actionWorkflows.solanaBatch!.id);
      const { requests } = (await (
        await fetch(`${n8n.emulator.control}/requests?interface=solana`)
      ).json()) as {
        requests: { method: string }[];
      };
      expect(requests.filter((request) => request.method === 'POST')).toHaveLength(10);
      // One item out per item in, in order: merging by position lines up.
      const items = output('Solana prices');
      expect(items.map((item) => item.tokenAddress)).toEqual(batchAddresses);
      expect(items.filter((item) => item.found === true).map((item) => item.tokenAddress)).toEqual([
        USDC,
        WRAPPED_SOL,
      ]);
      expect(items[0]).toEqual({ tokenAddress: batchAddresses[0], found: false });
    });

    it('the same 1,000 items through n8n’s HTTP Request node make 1,000 HTTP calls and give the same prices', async () => {
      await fetch(`${n8n.emulator.control}/requests`, { method: 'DELETE' });
      const output = await n8n.execute(actionWorkflows.solanaHttpRequest!.id);
      const { requests } = (await (
        await fetch(`${n8n.emulator.control}/requests?interface=solana`)
      ).json()) as {
        requests: { method: string; status: number }[];
      };
      const posts = requests.filter((request) => request.method === 'POST');
      expect(posts).toHaveLength(1_000);
      expect(posts.every((request) => request.status === 200)).toBe(true);
      const expected = await getSolanaTokenPrices(client, { addresses: [USDC, WRAPPED_SOL] });
      const prices = (items: { tokenAddress?: unknown; usdPrice?: unknown }[]) =>
        items.map((item) => [item.tokenAddress, item.usdPrice]);
      expect(prices(output('Solana prices'))).toEqual(prices(expected));
    });

    it('the same 1,000 items through Loop Over Items, Aggregate and the HTTP Request node make 10 HTTP calls of 100 addresses and give the same prices', async () => {
      await fetch(`${n8n.emulator.control}/requests`, { method: 'DELETE' });
      const output = await n8n.execute(actionWorkflows.solanaHttpRequestAggregate!.id);
      const { requests } = (await (
        await fetch(`${n8n.emulator.control}/requests?interface=solana`)
      ).json()) as {
        requests: { method: string; status: number }[];
      };
      const posts = requests.filter((request) => request.method === 'POST');
      expect(posts).toHaveLength(10);
      expect(posts.every((request) => request.status === 200)).toBe(true);
      // What each POST carried: one Aggregate item per batch, the batch's 100 addresses in order.
      const batches = output('Aggregate').map((item) => item.addresses as string[]);
      expect(batches.map((batch) => batch.length)).toEqual(Array(10).fill(100));
      expect(batches.flat()).toEqual(batchAddresses);
      // The loop's "done" output: the prices, and an empty item (Always Output Data) per batch without any.
      const done = output('Loop Over Items');
      expect(done).toHaveLength(10);
      const expected = await getSolanaTokenPrices(client, { addresses: [USDC, WRAPPED_SOL] });
      const prices = (items: { tokenAddress?: unknown; usdPrice?: unknown }[]) =>
        items.map((item) => [item.tokenAddress, item.usdPrice]);
      expect(prices(done.filter((item) => Object.keys(item).length > 0))).toEqual(prices(expected));
    });

    it('an option added and left as it is is not sent: To Block does not ask for block 0; a version-1 node keeps Options → Chain', async () => {
      const output = await n8n.execute(actionWorkflows.unsetOptions!.id);
      expect(output('USDC, To Block added')[0]).toMatchObject({ usdPrice: expect.any(Number) });
      expect(output('WETH on Polygon, a version-1 node')[0]).toMatchObject({
        tokenSymbol: 'WETH',
        usdPrice: expect.any(Number),
      });
    });

    it('Return All against a service that ignores page: two calls, each entry once (issue 21, point 13)', async () => {
      const output = await n8n.execute(actionWorkflows.ignoredPage!.id);
      const entries = output('Exchanges, all pages');
      expect(ignoredPageRequests).toHaveLength(2);
      expect(new Set(entries.map((entry) => entry.id)).size).toBe(entries.length);
      expect(entries.length).toBeGreaterThan(0);
    });

    it('entities: get, search, categories, entities of a category (all pages)', async () => {
      const output = await n8n.execute(actionWorkflows.entity!.id);
      expect(output('Get Binance')[0]).toMatchObject({ id: 'binance' });
      // One item per hit, each with its kind; one item per category (issue 21, point 1).
      const hits = output('Search');
      expect(hits.filter((hit) => hit.kind === 'entity').map((hit) => hit.id)).toContain('binance');
      expect(hits.length).toBeLessThanOrEqual(5);
      expect(output('Categories')).toHaveLength(9);
      expect(output('Categories')[0]).toMatchObject({
        id: expect.any(String),
        total_entities: expect.any(Number),
      });
      expect(output('Exchanges')).toHaveLength(12);
    });

    it('EVM stream status and settings', async () => {
      const streams = await n8n.execute(actionWorkflows.evmStream!.id);
      expect(streams('Pause')[0]).toMatchObject({ status: 'paused' });
      expect(streams('Resume')[0]).toMatchObject({ status: 'active' });
      const settings = await n8n.execute(actionWorkflows.settings!.id);
      expect(settings('Send webhooks from Frankfurt')[0]).toMatchObject({ region: 'eu-central-1' });
    });

    it('a Bitcoin stream through all fourteen operations', async () => {
      const output = await n8n.execute(actionWorkflows.bitcoinStream!.id);
      const id = output('Create')[0]?.id;
      expect(id).toEqual(expect.any(String));
      expect(output('Get')[0]).toMatchObject({ id, tag: 'treasury' });
      expect(output('Get Many').map((stream) => stream.id)).toContain(id);
      expect(output('Update')[0]).toMatchObject({ id, description: 'Treasury and payroll' });
      expect(output('Pause')).toHaveLength(1);
      expect(output('Add Addresses').map((result) => result.ok)).toEqual([true, true]);
      expect(output('Get Addresses')).toHaveLength(2);
      expect(output('Remove Address')[0]).toMatchObject({ amountOfAddresses: 1 });
      expect(output('Get Xpubs')).toHaveLength(1);
      expect(output('Remove Xpub')).toHaveLength(1);
      expect(output('Block Data')[0]).toMatchObject({ transactionsCount: expect.any(Number) });
      expect(output('Replay Block')[0]).toMatchObject({ streamId: id });
      expect(output('Delete')).toHaveLength(1);
      await expect(getBitcoinStream(client, { id: id as string })).rejects.toMatchObject({ status: 404 });
    });

    it('wallet balances and token balances of the emulator’s dev accounts, one item each, formatted with the raw values under raw, as its anvil holds them', async () => {
      const accounts = n8n.emulator.chain!.accounts;
      const rpc = createRpcClient(client, { chain: 'eth' });
      const held = await Promise.all(accounts.map(async (account) => BigInt(await rpc.getBalance(account))));
      await fetch(`${n8n.emulator.control}/requests`, { method: 'DELETE' });
      const output = await n8n.execute(actionWorkflows.wallet!.id);
      const balances = output('Balances');
      expect(balances).toHaveLength(accounts.length);
      balances.forEach((item, index) => {
        expect(item).toMatchObject({ raw: expect.objectContaining({ wei: held[index]!.toString() }) });
        expect(item.balance).toBe(etherOf(held[index]!));
      });
      // What the fixture token holds: every digit of 1234.567890123456789012 BWT, 1 unit, none.
      const token = n8n.emulator.chain!.contracts.tokens.BlockwireToken;
      const tokenBalances = output('Token balances');
      expect(tokenBalances).toHaveLength(accounts.length);
      tokenBalances.forEach((item, index) => {
        const raw =
          Object.entries(token.balances).find(
            ([holder]) => holder.toLowerCase() === accounts[index]!.toLowerCase(),
          )?.[1] ?? 0n;
        expect(item).toMatchObject({
          symbol: token.symbol,
          raw: expect.objectContaining({ amount: raw.toString() }),
        });
      });
      expect(tokenBalances[0]).toMatchObject({ balance: '1234.567890123456789012' });
      // Ten balances: one JSON-RPC batch; ten token balances (balanceOf each, decimals and symbol
      // once, identical calls merged): one batch; block number and gas price one call each.
      const { requests } = (await (
        await fetch(`${n8n.emulator.control}/requests?interface=node`)
      ).json()) as {
        requests: unknown[];
      };
      expect(requests).toHaveLength(4);
      expect(output('Block number')[0]).toMatchObject({
        blockNumber: Number(BigInt(await rpc.getBlockNumber())),
      });
      expect(output('Gas price')[0]).toMatchObject({
        raw: expect.objectContaining({ wei: BigInt(await rpc.getGasPrice()).toString() }),
      });
    });

    it('the eight JSON-RPC methods, on a chain picked by name or by id', async () => {
      const output = await n8n.execute(actionWorkflows.rpc!.id);
      const block = output('Block 2')[0];
      // Simplify is on: quantities read as decimals (issue 21, point 12).
      expect(block).toMatchObject({ number: 2, hash: expect.stringMatching(/^0x[0-9a-f]{64}$/) });
      expect(output('Same block by hash')[0]).toMatchObject({
        hash: block?.hash,
        transactionsCount: expect.any(Number),
      });
      expect(output('Uncle by hash')).toEqual([{ result: null }]);
      expect(output('Uncle by number')).toEqual([{ result: null }]);
      expect(output('Receipts of block 2').length).toBeGreaterThan(0);
      const hash = n8n.emulator.chain!.transactionHashes[0];
      expect(output('Transaction')[0]).toMatchObject({ hash });
      expect(output('Receipt')[0]).toMatchObject({ transactionHash: hash });
      expect(output('Proof')[0]).toMatchObject({ address: expect.stringMatching(/^0x/i) });
    });
  },
);
