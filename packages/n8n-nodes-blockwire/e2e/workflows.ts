/**
 * The credentials and workflows the e2e tests import into n8n, in n8n's import format. Node types
 * take a prefix: `CUSTOM.` for a package loaded through N8N_CUSTOM_EXTENSIONS (the tests),
 * `n8n-nodes-blockwire.` once installed as a community package (the README's examples).
 */
import { randomUUID } from 'node:crypto';

export interface CredentialRef {
  id: string;
  name: string;
}

export interface WorkflowNode {
  id: string;
  name: string;
  type: string;
  typeVersion: number;
  position: [number, number];
  parameters: Record<string, unknown>;
  credentials?: { blockwireApi: CredentialRef };
  webhookId?: string;
}

export interface Workflow {
  id: string;
  name: string;
  active: boolean;
  nodes: WorkflowNode[];
  connections: Record<string, { main: { node: string; type: 'main'; index: number }[][] }>;
  settings: Record<string, unknown>;
}

export function credentialImport(ref: CredentialRef, data: Record<string, string>) {
  return { id: ref.id, name: ref.name, type: 'blockwireApi', data };
}

export function triggerNode(options: {
  prefix: string;
  credential: CredentialRef;
  parameters: Record<string, unknown>;
  webhookId?: string;
}): WorkflowNode {
  return {
    id: randomUUID(),
    name: 'Blockwire Trigger',
    type: `${options.prefix}blockwireTrigger`,
    typeVersion: 1,
    position: [0, 0],
    webhookId: options.webhookId ?? randomUUID(),
    parameters: options.parameters,
    credentials: { blockwireApi: options.credential },
  };
}

/** A workflow of nodes run one after the other. */
export function workflow(id: string, name: string, nodes: WorkflowNode[]): Workflow {
  const connections: Workflow['connections'] = {};
  nodes.forEach((node, index) => {
    const next = nodes[index + 1];
    if (next) connections[node.name] = { main: [[{ node: next.name, type: 'main', index: 0 }]] };
  });
  return { id, name, active: false, nodes, connections, settings: { executionOrder: 'v1' } };
}
