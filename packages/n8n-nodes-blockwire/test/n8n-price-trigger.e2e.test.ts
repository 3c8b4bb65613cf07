/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals --
   Test code: runs in vitest, never inside n8n (package.json#files is dist). */
/**
 * The package's templates (templates/*.json) imported into a real n8n (2.41.1) and run against the
 * emulator: the price alert (Blockwire Price Trigger → an HTTP Request standing in for Slack),
 * with the token's price scripted one step per poll, and the wallet watch-list report (Blockwire
 * wallet balances → a Code node → an HTTP Request), run with `n8n execute`.
 *
 * How polls are made fast: n8n refuses a poll interval under a minute (`isSubMinuteCron` in
 * n8n-workflow's cron.ts, checked by `activatePollTrigger` in n8n-core's
 * active-workflow-triggers.ts), but every activation runs one poll at once (`executePollTrigger(true)`
 * there), with the trigger's real context, emitting an execution when it returns items. So each
 * poll here is an activation: through the public API, or by n8n itself when it starts with the
 * workflow active (a restart). The schedule is set to midnight on January 1st so that no
 * scheduled poll takes a step in between. The emulator counts the price requests it served,
 * which says when each poll happened.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createClient } from '@blockwire/core';
import { createRpcClient } from '@blockwire/rpc';
import { listBitcoinStreams } from '@blockwire/streams';
import { skipped } from '@blockwire/testing/skips';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { itemsOf, waitFor } from '../e2e/n8n.ts';
import { useN8nWithEmulator } from './support/n8n';

const packageDir = join(__dirname, '..');
const WORKFLOW_ID = 'bwPriceAlert0001';
const REPORT_WORKFLOW_ID = 'bwWalletReport01';
const PAYMENT_WORKFLOW_ID = 'bwPaymentToRow01';
const LABEL_WORKFLOW_ID = 'bwLabelAddress01';
/** A receive address of the BIP84 test mnemonic ("abandon ×11 about"). */
const WATCHED = 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu';
const LINK = '0x514910771AF9Ca656af840dff83E8264EcF986CA';
/** The template's LINK level is 20 USD: the series crosses it twice. */
const SERIES = [18, 21, 22, 19, 20.5];
const CREDENTIAL = { id: 'blockwirePriceEmu', name: 'Blockwire (emulator)' };

let receiver: Server;
/** What the receiver standing in for Slack got, by path. */
const received: { path: string; body: Record<string, unknown> }[] = [];
const notifications = () => received.filter((entry) => entry.path === '/alerts').map((entry) => entry.body);

interface TemplateNode {
  name: string;
  type: string;
  parameters: Record<string, unknown>;
  credentials?: Record<string, unknown>;
}

/**
 * A template as a user imports it and fills it in: this emulator's credential, the local receiver
 * for the webhook URL, and `adjust` for what the user would edit (the watch list).
 */
function templateWorkflow(
  file: string,
  id: string,
  notifyUrl: string,
  adjust: (node: TemplateNode) => void = () => {},
) {
  const template = JSON.parse(readFileSync(join(packageDir, 'templates', file), 'utf8')) as {
    nodes: TemplateNode[];
  };
  for (const node of template.nodes) {
    node.type = node.type.replace(/^n8n-nodes-blockwire\./, 'CUSTOM.');
    if (node.credentials?.blockwireApi) node.credentials.blockwireApi = CREDENTIAL;
    if (node.type === 'n8n-nodes-base.httpRequest') node.parameters.url = notifyUrl;
    adjust(node);
  }
  return { ...template, id, active: false };
}

// Registered before n8n's set-up: the templates post to it.
beforeAll(async () => {
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => {
      body += chunk.toString('utf8');
    });
    req.on('end', () => {
      received.push({ path: req.url ?? '', body: JSON.parse(body) as Record<string, unknown> });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
});

afterAll(async () => {
  await new Promise((resolve) => (receiver ? receiver.close(resolve) : resolve(undefined)));
});

const receiverUrl = () => `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;

// anvil included (the default): the wallet report reads its balances.
const n8n = useN8nWithEmulator({
  credential: CREDENTIAL,
  imports: (emulator) => ({
    workflows: [
      templateWorkflow('price-alert-to-webhook.json', WORKFLOW_ID, `${receiverUrl()}/alerts`, (node) => {
        // No scheduled poll during the test: every poll is an activation (see above).
        if ('pollTimes' in node.parameters) {
          node.parameters.pollTimes = { item: [{ mode: 'custom', cronExpression: '0 0 0 1 1 *' }] };
        }
      }),
      templateWorkflow(
        'wallet-balances-report.json',
        REPORT_WORKFLOW_ID,
        `${receiverUrl()}/report`,
        (node) => {
          // The watch list: the emulator's dev accounts.
          if (node.name === 'Watched wallets') {
            node.parameters.jsCode = `return ${JSON.stringify(emulator.chain!.accounts.slice(0, 3))}.map((address) => ({ json: { address } }));`;
          }
        },
      ),
      templateWorkflow(
        'bitcoin-payment-to-row.json',
        PAYMENT_WORKFLOW_ID,
        `${receiverUrl()}/rows`,
        (node) => {
          // The address to watch: one the emulator's Bitcoin simulator pays.
          if (node.name === 'Blockwire Trigger') node.parameters.addresses = WATCHED;
        },
      ),
      // As shipped: its list holds two addresses the directory labels and one it does not.
      templateWorkflow('label-addresses-with-entities.json', LABEL_WORKFLOW_ID, receiverUrl()),
    ],
  }),
});

/** How many price requests of LINK the emulator served: one per poll. */
async function polls(): Promise<number> {
  const { prices } = (await (await fetch(`${n8n.emulator.control}/prices`)).json()) as {
    prices: { address: string; served: number }[];
  };
  return prices.find((price) => price.address === LINK.toLowerCase())?.served ?? 0;
}

async function untilPolled(count: number): Promise<void> {
  await waitFor(`poll ${count}`, async () => ((await polls()) >= count ? true : undefined), 60_000);
  expect(await polls()).toBe(count);
}

/** The executions of the workflow, once every one has finished. */
async function finishedExecutions() {
  return await waitFor('every execution finished', async () => {
    const executions = await n8n.api.executions(WORKFLOW_ID);
    return executions.every((execution) => ['success', 'error', 'crashed'].includes(execution.status))
      ? executions
      : undefined;
  });
}

/** One poll through the public API: deactivate, then activate (which polls at once). */
async function pollByActivation(): Promise<void> {
  await n8n.api.publicApi('POST', `/workflows/${WORKFLOW_ID}/deactivate`);
  await n8n.api.publicApi('POST', `/workflows/${WORKFLOW_ID}/activate`);
}

/**
 * One poll by a restart: n8n stops, and activates the workflow again as it starts. Same port and
 * database, so the owner's session and API key still hold.
 */
async function pollByRestart(): Promise<void> {
  await n8n.restart();
}

describe.skipIf(skipped('n8n'))('Blockwire Price Trigger and the templates in a real n8n', () => {
  it(
    'the template fires exactly one execution per crossing of a scripted series, across restarts of n8n',
    async () => {
      const answer = await fetch(`${n8n.emulator.control}/prices/eth/${LINK}`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ series: SERIES.map((usd) => ({ usd })) }),
      });
      expect(answer.status).toBe(200);

      // Poll 1 (activation): 18 arms the trigger below 20; nothing runs.
      await n8n.api.publicApi('POST', `/workflows/${WORKFLOW_ID}/activate`);
      await untilPolled(1);
      expect(await finishedExecutions()).toEqual([]);

      // Poll 2: 21 crosses 20: one execution, one notification.
      await pollByActivation();
      await untilPolled(2);
      await waitFor('the first alert', async () =>
        (await n8n.api.executions(WORKFLOW_ID)).length === 1 ? true : undefined,
      );

      // Poll 3, after a restart: 22 is still above: the saved state does not fire again.
      await pollByRestart();
      await untilPolled(3);
      // Poll 4: 19 falls below (no alert for this condition).
      await pollByActivation();
      await untilPolled(4);
      // Poll 5, after another restart: 20.5 crosses again: the second execution.
      await pollByRestart();
      await untilPolled(5);
      await waitFor('the second alert', async () =>
        (await n8n.api.executions(WORKFLOW_ID)).length === 2 ? true : undefined,
      );

      const executions = await finishedExecutions();
      expect(executions.map((execution) => execution.status)).toEqual(['success', 'success']);
      const alerts = executions.flatMap((execution) => itemsOf(execution, 'Blockwire Price Trigger'));
      expect(alerts).toEqual([
        expect.objectContaining({
          token: LINK,
          symbol: 'LINK',
          chain: 'eth',
          price: 21,
          previousPrice: 18,
          condition: 'crossesAbove',
          threshold: 20,
          direction: 'up',
        }),
        expect.objectContaining({ price: 20.5, previousPrice: 19, direction: 'up' }),
      ]);
      expect(notifications().map((notification) => notification.text)).toEqual([
        'LINK crossed above 20 USD on eth: now 21 USD, was 18',
        'LINK crossed above 20 USD on eth: now 20.5 USD, was 19',
      ]);
      // Nothing fired late: still two executions.
      expect(await n8n.api.executions(WORKFLOW_ID)).toHaveLength(2);
    },
    10 * 60_000,
  );

  it(
    'the wallet watch-list template reports the dev accounts’ balances as the emulator’s anvil holds them',
    async () => {
      const accounts = n8n.emulator.chain!.accounts.slice(0, 3);
      const client = createClient({ apiKey: n8n.emulator.apiKey, baseUrls: n8n.emulator.urls, retry: false });
      const rpc = createRpcClient(client, { chain: 'eth' });
      const held = await Promise.all(accounts.map(async (account) => BigInt(await rpc.getBalance(account))));
      await client.close();
      const output = await n8n.execute(REPORT_WORKFLOW_ID);
      const balances = output('Balances');
      expect(balances.map((item) => (item.raw as { wei: string }).wei)).toEqual(held.map(String));
      const report = received.filter((entry) => entry.path === '/report').map((entry) => entry.body);
      expect(report).toEqual([
        {
          text: [
            'Wallet balances',
            ...accounts.map((account, index) => `${account}: ${balances[index]!.balance} ETH`),
          ].join('\n'),
          wallets: accounts.map((address, index) => ({ address, balance: balances[index]!.balance })),
        },
      ]);
      for (const item of balances) expect(item.balance).toMatch(/^\d+(\.\d+)?$/);
    },
    5 * 60_000,
  );

  it(
    'the Bitcoin payment template appends one row per confirmed payment to the watched address',
    async () => {
      await n8n.api.publicApi('POST', `/workflows/${PAYMENT_WORKFLOW_ID}/activate`);
      // The trigger creates its stream on activation: wait until the service has it.
      const client = createClient({ apiKey: n8n.emulator.apiKey, baseUrls: n8n.emulator.urls, retry: false });
      await waitFor('the payment stream', async () => {
        const { result } = await listBitcoinStreams(client, { limit: 100 });
        // Created first, then given its address.
        return result.find((stream) => stream.tag === 'payments' && stream.amountOfAddresses === 1);
      });
      await client.close();
      const pay = await fetch(`${n8n.emulator.control}/bitcoin/transactions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ to: WATCHED, amountBtc: '0.0015' }),
      });
      const { txid } = (await pay.json()) as { txid: string };
      for (const blocks of [1, 2]) {
        await fetch(`${n8n.emulator.control}/bitcoin/mine`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ blocks }),
        });
      }
      const rows = () => received.filter((entry) => entry.path === '/rows').map((entry) => entry.body);
      await waitFor('the row', async () => (rows().length > 0 ? true : undefined), 90_000);
      await waitFor('every execution finished', async () => {
        const executions = await n8n.api.executions(PAYMENT_WORKFLOW_ID);
        return executions.every((execution) => execution.status === 'success') ? true : undefined;
      });
      // Mempool and in-block deliveries start nothing (Stages: confirmed only): one row.
      expect(rows()).toEqual([
        {
          txid,
          receivedBtc: 0.0015,
          receivedSats: 150_000,
          addresses: expect.arrayContaining([WATCHED]),
          blockHeight: expect.any(Number),
          confirmed: true,
        },
      ]);
      await n8n.api.publicApi('POST', `/workflows/${PAYMENT_WORKFLOW_ID}/deactivate`);
    },
    5 * 60_000,
  );

  it(
    'the entity template labels each address of the list with its entity, and an unlabelled one "unknown"',
    async () => {
      const labels = (await n8n.execute(LABEL_WORKFLOW_ID))('Labels');
      // The emulator's fixtures: Binance 14 and Uniswap V2's router are labelled, 0x…dEaD is not.
      expect(labels).toEqual([
        { address: '0x28C6c06298d514Db089934071355E5743bf21d60', entity: 'Binance', label: 'Binance 14' },
        {
          address: '0x7a250d5630B4cF539739dF2C5dAcb4c659F2488D',
          entity: 'Uniswap',
          label: 'Uniswap V2: Router 2',
        },
        { address: '0x000000000000000000000000000000000000dEaD', entity: 'unknown', label: 'unknown' },
      ]);
    },
    5 * 60_000,
  );
});
