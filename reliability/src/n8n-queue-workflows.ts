/** The n8n-queue scenario's credentials and workflows, imported into n8n, and what its trigger emitted. */

import { DEFAULT_SECRET_KEY } from '@blockwire/emulator';
import type { BitcoinDeliveryStage } from '@blockwire/streams';
import type { ensureN8n } from 'n8n-nodes-blockwire/e2e/install-n8n.ts';
import { itemsOf, type N8nApi, runN8nCli, writeImportFiles } from 'n8n-nodes-blockwire/e2e/n8n.ts';
import type { N8nQueueEnvironment } from 'n8n-nodes-blockwire/e2e/queue.ts';
import { solanaBatchAddresses } from 'n8n-nodes-blockwire/e2e/solana-addresses.ts';
import {
  credentialImport,
  solanaBatchWorkflow,
  stableId,
  triggerNode,
  webhookTrigger,
  workflow,
} from 'n8n-nodes-blockwire/e2e/workflows.ts';
import type { EmulatorProcess } from './processes.ts';

export const STAGES: BitcoinDeliveryStage[] = ['mempool', 'in-block', 'confirmed'];
export const WATCHED = 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu';
const API = { id: 'blockwireEmulator', name: 'Blockwire (emulator)' };
const STORE = { id: 'blockwireRepeatStore', name: 'Repeat store (n8n database)' };
export const TRIGGER_WORKFLOW = 'bwQueueTrigger01';
export const TRIGGER_NODE = 'Blockwire Trigger';
export const TRIGGER_WEBHOOK_ID = stableId('n8n-queue', 'trigger');
/** The same copies against n8n's own store (EVM mode: it registers no stream), for comparison. */
export const N8N_STORE_WORKFLOW = 'bwQueueN8nStore1';
export const N8N_STORE_WEBHOOK_ID = stableId('n8n-queue', 'n8n store');
export const SOLANA_WORKFLOW = 'bwQueueSolana001';
export const SOLANA_PATH = 'solana-prices';

export async function importWorkflows(
  install: Awaited<ReturnType<typeof ensureN8n>>,
  environment: N8nQueueEnvironment,
  emulator: EmulatorProcess,
  database: { host: string; port: number; database: string; user: string },
): Promise<void> {
  const files = writeImportFiles(environment.main, {
    credentials: [
      credentialImport(API, {
        apiKey: emulator.apiKey,
        webhookSecret: DEFAULT_SECRET_KEY,
        evmBaseUrl: emulator.urls.evm,
        solanaBaseUrl: emulator.urls.solana,
        streamsBaseUrl: emulator.urls.streams,
        nodeBaseUrl: emulator.urls.node,
      }),
      // The repeat store in n8n's own database (a table of its own there).
      credentialImport(STORE, { ...database, password: '', ssl: 'disable' }, 'blockwirePostgresApi'),
    ],
    workflows: [
      workflow(TRIGGER_WORKFLOW, 'Bitcoin payments (queue mode)', [
        triggerNode({
          prefix: 'CUSTOM.',
          credential: API,
          repeatStore: STORE,
          webhookId: TRIGGER_WEBHOOK_ID,
          parameters: { mode: 'bitcoin', addresses: WATCHED, stages: STAGES },
        }),
      ]),
      workflow(N8N_STORE_WORKFLOW, 'EVM deliveries (n8n’s repeat store)', [
        triggerNode({
          prefix: 'CUSTOM.',
          credential: API,
          webhookId: N8N_STORE_WEBHOOK_ID,
          parameters: { mode: 'evm' },
        }),
      ]),
      solanaBatchWorkflow('CUSTOM.', API, solanaBatchAddresses(1_000), {
        start: webhookTrigger(SOLANA_PATH),
        id: SOLANA_WORKFLOW,
      }),
    ],
  });
  for (const args of [
    ['import:credentials', `--input=${files.credentials}`],
    ['import:workflow', '--separate', `--input=${files.workflows}`],
  ]) {
    const outcome = await runN8nCli(install, environment.main, args, { timeoutMs: 180_000 });
    if (outcome.code !== 0)
      throw new Error(`n8n ${args[0]} exited ${outcome.code}:\n${outcome.stdout}\n${outcome.stderr}`);
  }
}

export async function triggerItems(api: N8nApi): Promise<Record<string, unknown>[]> {
  return (await api.executions(TRIGGER_WORKFLOW)).flatMap((execution) => itemsOf(execution, TRIGGER_NODE));
}

export const unitOf = (item: Record<string, unknown>) => `${item.txid} ${item.stage}`;
