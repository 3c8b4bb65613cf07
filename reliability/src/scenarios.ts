/** The scenarios of the suite, by id, in the order they run. */
import { badInput } from './bad-input.ts';
import { load } from './load.ts';
import { n8nQueue } from './n8n-queue.ts';
import type { Scale, ScenarioId, ScenarioResult } from './report.ts';
import { restFaults } from './rest-faults.ts';
import { rpcFaults } from './rpc-faults.ts';
import { secrets } from './secrets.ts';
import { webhookChaos } from './webhook-chaos.ts';
import { webhookCluster, webhookClusterIdle, webhookClusterRestart } from './webhook-cluster.ts';

export const SCENARIOS: Record<ScenarioId, (scale: Scale) => Promise<ScenarioResult>> = {
  'rest-faults': restFaults,
  'rpc-faults': rpcFaults,
  'webhook-chaos': webhookChaos,
  'webhook-cluster': webhookCluster,
  'webhook-cluster-idle': webhookClusterIdle,
  'webhook-cluster-restart': webhookClusterRestart,
  'bad-input': badInput,
  secrets,
  load,
  'n8n-queue': n8nQueue,
};
