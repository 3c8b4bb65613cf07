/**
 * n8n: the 1,000-item Solana workflow of the n8n package's e2e tests, in the real n8n of that
 * harness (installed once into ~/.cache/blockwire, the package's build loaded as a custom
 * extension), against the same workflow with n8n's own HTTP Request node in place of the
 * Blockwire node, once called per item and once after n8n's Loop Over Items and Aggregate nodes
 * (100 addresses a call, as a user who batches builds it). All price the items at the emulator's
 * Solana endpoint. A webhook starts each execution and answers when the last node has finished:
 * the figure is that call's time, in milliseconds; the emulator counts the HTTP calls each
 * execution made.
 */
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { credentialsFor } from '../../../packages/n8n-nodes-blockwire/e2e/emulator-credentials.ts';
import { ensureN8n } from '../../../packages/n8n-nodes-blockwire/e2e/install-n8n.ts';
import {
  N8nApi,
  type N8nEnvironment,
  type N8nProcess,
  prepareN8n,
  removeEnvironment,
  startN8nServer,
  waitFor,
} from '../../../packages/n8n-nodes-blockwire/e2e/n8n.ts';
import {
  solanaBatchAddresses,
  USDC,
  WRAPPED_SOL,
} from '../../../packages/n8n-nodes-blockwire/e2e/solana-addresses.ts';
import {
  type CredentialRef,
  httpRequestSolanaPricesNode,
  SOLANA_ADDRESSES_PER_CALL,
  solanaHttpRequestAggregateWorkflow,
  solanaItemsNode,
  solanaPricesNode,
  stableId,
  type Workflow,
  type WorkflowNode,
  workflow,
} from '../../../packages/n8n-nodes-blockwire/e2e/workflows.ts';
import type { EmulatorInChild } from '../child-servers.ts';
import {
  type Contender,
  collectGarbage,
  type MeasureOptions,
  measure,
  measureEveryNote,
  median,
  type RunInfo,
  since,
} from '../harness.ts';
import { processGroupCpuMs } from '../process-cpu.ts';
import type { Comparison } from '../report.ts';
import { figureTarget, summarize } from '../report.ts';
import { listenInChild, type RunningServer } from '../servers.ts';

export interface N8nItemsOptions extends Pick<MeasureOptions, 'measureEvery'> {
  items: number;
  rounds: number;
  /** Runs thrown away after each start of n8n. */
  warmup: number;
  /** The starts of n8n the measured rounds are spread over (`MeasureOptions.spreadOver`). */
  processes: number;
}

/** A workflow the bench runs: its webhook URL, and how its executions are found. */
interface BenchWorkflow {
  id: string;
  url: string;
}

export async function n8nItems(options: N8nItemsOptions): Promise<Comparison> {
  const install = await ensureN8n(); // minutes the first time on a machine, then reused
  const addresses = solanaBatchAddresses(options.items);
  const packageDir = dirname(createRequire(import.meta.url).resolve('n8n-nodes-blockwire/package.json'));
  let emulator: (EmulatorInChild & RunningServer) | undefined;
  let environment: N8nEnvironment | undefined;
  let server: N8nProcess | undefined;
  try {
    // In a child process, as every other comparison's server: its work answering the workflows'
    // calls (a thousand for the HTTP Request node's, ten for the others) is in no client's CPU.
    emulator = await listenInChild<EmulatorInChild>('emulator');
    environment = await prepareN8n({ packageDir });
    const startAt = performance.now();
    server = await startN8nServer(install, environment);
    const startSeconds = since(startAt) / 1000;
    const api = new N8nApi(server.url);
    await api.setUp();

    const blockwireCredential = await createCredential(api, 'Blockwire (emulator)', 'blockwireApi', {
      ...credentialsFor(emulator),
    });
    const headerCredential = await createCredential(api, 'Solana API key', 'httpHeaderAuth', {
      name: 'X-Api-Key',
      value: emulator.apiKey,
    });
    const itemsNode = solanaItemsNode(addresses);
    const solanaUrl = emulator.urls.solana;
    const workflows = {
      blockwire: await createWebhookWorkflow(api, server.url, 'blockwire-solana', (trigger) =>
        workflow('blockwire-solana', 'blockwire-solana', [
          trigger,
          itemsNode,
          solanaPricesNode('CUSTOM.', blockwireCredential),
        ]),
      ),
      'http-request-node': await createWebhookWorkflow(api, server.url, 'http-request-solana', (trigger) =>
        workflow('http-request-solana', 'http-request-solana', [
          trigger,
          itemsNode,
          httpRequestSolanaPricesNode({ solanaUrl, credential: headerCredential }),
        ]),
      ),
      'http-request-aggregate': await createWebhookWorkflow(
        api,
        server.url,
        'http-request-aggregate-solana',
        (trigger) =>
          solanaHttpRequestAggregateWorkflow({
            solanaUrl,
            credential: headerCredential,
            addresses,
            start: trigger,
          }),
      ),
    };
    type Name = keyof typeof workflows;
    const names = Object.keys(workflows) as Name[];
    const perName = () =>
      Object.fromEntries(names.map((name) => [name, [] as number[]])) as Record<Name, number[]>;

    const control = emulator.control;
    const calls = perName();
    const recorded = perName();
    let pricesSeen: string | undefined;
    const run = (name: Name) => async (info: RunInfo) => {
      const target = workflows[name];
      await fetch(`${control}/requests`, { method: 'DELETE' });
      const before = await executionCount(api, target.id);
      const start = performance.now();
      const response = await fetch(target.url, { method: 'POST' });
      const body = await response.text();
      const ms = since(start);
      if (!response.ok)
        throw new Error(`${name}: the webhook answered ${response.status}: ${body.slice(0, 500)}`);
      const prices = pricesOf(name, body);
      pricesSeen ??= prices;
      if (prices !== pricesSeen) throw new Error(`${name} priced ${prices}, another workflow ${pricesSeen}`);
      const sent = await solanaCalls(control);
      // n8n has answered; it may still be saving the execution. The next run starts after that.
      const recordedMs = await finishedExecutionMs(api, target.id, before);
      if (!info.warmup) {
        calls[name].push(sent);
        recorded[name].push(recordedMs);
      }
      return ms;
    };
    // The first call after activation (at every start) can meet a webhook n8n has not registered yet.
    const untilWebhooksAnswer = async () => {
      for (const name of names) {
        await waitFor(`${name}'s webhook`, () => run(name)({ warmup: true }).then(() => true), 60_000, 500);
      }
    };
    await untilWebhooksAnswer();
    const contenders: Contender[] = names.map((name) => ({ name, round: run(name) }));
    // The runs above were a warm-up already; the options' warm-up rounds come on top.
    // The client here is n8n running the workflow (with its task runner): its process group's CPU,
    // plus this process's (the webhook call, the checks).
    const cpuMs = () => {
      const own = process.cpuUsage();
      const n8nGroup = server?.pid;
      const n8n = n8nGroup === undefined ? undefined : processGroupCpuMs(n8nGroup);
      if (n8n === undefined) throw new Error('cannot read the CPU time of n8n’s processes (no /proc)');
      return n8n + (own.user + own.system) / 1000;
    };
    // One n8n process is one draw of its collector's regime for its life, as any client's is
    // (client-process.ts): the rounds are spread over several starts of it, its workflows and
    // credentials kept in its database.
    const restart = async () => {
      await server?.stop();
      server = undefined;
      server = await startN8nServer(install, environment!);
      await untilWebhooksAnswer();
    };
    const measured = await measure(contenders, 'blockwire', {
      ...options,
      settle: collectGarbage,
      cpuMs,
      spreadOver: { processes: options.processes, restart },
    });
    const summary = summarize(measured, 'blockwire', false);
    const references = ['http-request-node', 'http-request-aggregate'] as const;
    const blockwireCalls = calls.blockwire;
    const referenceCalls = calls['http-request-node'];
    const aggregateCalls = calls['http-request-aggregate'];
    const perReference = (of: (name: (typeof references)[number]) => number) =>
      Object.fromEntries(references.map((name) => [name, of(name)]));
    const expectedCalls = Math.ceil(options.items / SOLANA_ADDRESSES_PER_CALL);
    return {
      id: 'n8n-items',
      title: `n8n: ${options.items.toLocaleString('en')} items priced at the Solana endpoint, in a real n8n ${install.version}`,
      metric:
        'time of one execution, webhook call to last node (ratio: the reference workflow’s time ÷ Blockwire’s)',
      unit: 'ms',
      higherIsBetter: false,
      ...summary,
      targets: [
        {
          text: `${expectedCalls} HTTP calls (${SOLANA_ADDRESSES_PER_CALL} addresses a call) where the HTTP Request node makes one per item (and as many as Blockwire after Aggregate)`,
          met:
            blockwireCalls.every((count) => count === expectedCalls) &&
            referenceCalls.every((count) => count === options.items) &&
            aggregateCalls.every((count) => count === expectedCalls),
        },
        figureTarget(
          'faster than the HTTP Request node (ratio > 1)',
          { figure: 'ratios', reference: 'http-request-node', atLeast: 1, strict: true },
          summary,
        ),
        figureTarget(
          'no slower than the HTTP Request node after Aggregate (ratio ≥ 1)',
          { figure: 'ratios', reference: 'http-request-aggregate', atLeast: 1 },
          summary,
        ),
      ],
      cases: [
        {
          name: 'HTTP calls the emulator received, per execution',
          unit: 'calls',
          blockwire: median(blockwireCalls),
          references: perReference((name) => median(calls[name])),
          ratios: perReference((name) => median(calls[name]) / median(blockwireCalls)),
        },
        {
          name: "execution time in n8n's execution record (startedAt to stoppedAt), median",
          unit: 'ms',
          blockwire: median(recorded.blockwire!),
          references: perReference((name) => median(recorded[name])),
          ratios: perReference((name) => median(recorded[name]) / median(recorded.blockwire)),
        },
      ],
      notes: [
        `All three workflows: a Webhook node (respond when the last node finishes, with all its items), the e2e tests' Code node making ${options.items.toLocaleString('en')} items of one Solana address each (USDC and wrapped SOL among them, the two the emulator prices), then the lookup. Blockwire: its node, Token Price → Get Solana, addresses \`{{ $json.address }}\`. Reference: n8n's HTTP Request node 4.2, POST \`{solana_url}/token/mainnet/prices\` with \`{ "addresses": [address] }\` for each item and the key in a Header Auth credential; its Batching option is off (it never merges items into one request, it only waits between groups of them), so all requests go out at once: its fastest setting.`,
        `Reference \`http-request-aggregate\`: the items go through n8n's Loop Over Items node (Split in Batches 3, batch size ${SOLANA_ADDRESSES_PER_CALL}) → Aggregate (the batch's \`address\` fields into one \`addresses\` list) → the same HTTP Request node POSTing \`{ "addresses": [...] }\` once a batch → back to the loop, whose "done" output ends the workflow: ${expectedCalls} calls one after the other, where Blockwire's node sends its chunks concurrently. The HTTP Request node has Always Output Data on: an answer without any price gives no item, and n8n would end the loop at the first such batch; with it, that batch gives an empty item, which the price check leaves out.`,
        `Each run is checked: all three answer the same two prices (the priced items, compared). HTTP calls are counted by the emulator (its request log), per execution: Blockwire ${blockwireCalls.join(', ')}; HTTP Request node ${referenceCalls.join(', ')}; after Aggregate ${aggregateCalls.join(', ')}.`,
        `n8n ${install.version} in regular mode (SQLite), the package's build loaded as a custom extension, started in ${startSeconds.toFixed(1)} s, and started afresh for each of the ${options.processes} stretches the measured rounds are spread over (in each, every workflow runs once until its webhook answers, then ${options.warmup} warm-up round${options.warmup === 1 ? '' : 's'}); the emulator runs in a child process of the bench (on the servers' CPU when pinned) with no added latency.${measureEveryNote(options)}`,
        'Client CPU: the CPU time of n8n’s processes (its process group: n8n and its task runner, read from /proc) plus the bench process’s (the webhook call and the checks), per execution; the emulator’s answering is in neither.',
      ],
    };
  } finally {
    await server?.stop();
    removeEnvironment(environment);
    await emulator?.close();
  }
}

async function createCredential(
  api: N8nApi,
  name: string,
  type: string,
  data: Record<string, unknown>,
): Promise<CredentialRef> {
  const created = (await api.publicApi('POST', '/credentials', { name, type, data })) as { id: string };
  return { id: created.id, name };
}

/** Creates and activates the workflow `build` makes after a Webhook node that answers with the last node's items. */
async function createWebhookWorkflow(
  api: N8nApi,
  n8nUrl: string,
  path: string,
  build: (trigger: WorkflowNode) => Workflow,
): Promise<BenchWorkflow> {
  const trigger: WorkflowNode = {
    id: stableId('bench webhook', path),
    name: 'Webhook',
    type: 'n8n-nodes-base.webhook',
    typeVersion: 2,
    position: [0, 0],
    webhookId: stableId('bench webhook id', path),
    parameters: {
      httpMethod: 'POST',
      path,
      responseMode: 'lastNode',
      responseData: 'allEntries',
      options: {},
    },
  };
  // The public API makes the id and decides `active` itself.
  const { id: _id, active: _active, ...body } = build(trigger);
  const created = (await api.publicApi('POST', '/workflows', body)) as { id: string };
  await api.publicApi('POST', `/workflows/${created.id}/activate`);
  return { id: created.id, url: `${n8nUrl}/webhook/${path}` };
}

interface ExecutionSummary {
  id: string;
  status: string;
  startedAt: string;
  stoppedAt: string | null;
}

async function executionsOf(api: N8nApi, workflowId: string): Promise<ExecutionSummary[]> {
  const query = new URLSearchParams({ workflowId, limit: '250' });
  return ((await api.publicApi('GET', `/executions?${query}`)) as { data: ExecutionSummary[] }).data;
}

async function executionCount(api: N8nApi, workflowId: string): Promise<number> {
  return (await executionsOf(api, workflowId)).length;
}

/** Waits for the execution after the `before` first ones to be saved as finished; its recorded duration. */
async function finishedExecutionMs(api: N8nApi, workflowId: string, before: number): Promise<number> {
  const execution = await waitFor(
    'the execution record',
    async () => {
      const all = await executionsOf(api, workflowId);
      const latest = all.sort((a, b) => Number(b.id) - Number(a.id))[0];
      return all.length > before && latest?.stoppedAt ? latest : undefined;
    },
    30_000,
    50,
  );
  if (execution.status !== 'success') throw new Error(`execution ${execution.id} ended ${execution.status}`);
  return Date.parse(execution.stoppedAt!) - Date.parse(execution.startedAt);
}

/** The prices a webhook answered, as one comparable string; both mints must be there. */
function pricesOf(name: string, body: string): string {
  // The Blockwire node answers every item, `found: false` where there is no price; the HTTP
  // Request node has no item for an empty answer, or an empty one (`{}`) with Always Output Data
  // (the Aggregate workflow). Only the priced ones are compared.
  const items = (JSON.parse(body) as { tokenAddress?: string; usdPrice?: number; found?: boolean }[]).filter(
    (item) => item.found !== false && Object.keys(item).length > 0,
  );
  const prices = items.map((item) => `${item.tokenAddress}=${item.usdPrice}`).sort();
  const found = new Set(items.map((item) => item.tokenAddress));
  if (
    !found.has(USDC) ||
    !found.has(WRAPPED_SOL) ||
    items.some((item) => typeof item.usdPrice !== 'number')
  ) {
    throw new Error(`${name} did not price USDC and wrapped SOL: ${body.slice(0, 500)}`);
  }
  return prices.join(', ');
}

/** POSTs the emulator's Solana interface received since its log was cleared (each must have been answered 200). */
async function solanaCalls(control: string): Promise<number> {
  const { requests } = (await (await fetch(`${control}/requests?interface=solana`)).json()) as {
    requests: { method: string; status: number }[];
  };
  const posts = requests.filter((request) => request.method === 'POST');
  const failed = posts.filter((request) => request.status !== 200);
  if (failed.length > 0) throw new Error(`${failed.length} Solana calls were answered ${failed[0]!.status}`);
  return posts.length;
}
