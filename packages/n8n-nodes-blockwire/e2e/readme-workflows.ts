/**
 * The generated parts of the README: the table of resources and operations (from the node's
 * actions) and the workflow JSON examples, built by the same functions that make the workflows
 * the e2e tests run in a real n8n (only the node type prefix and the example values differ).
 * The README marks each place:
 *
 *   <!-- operations -->            <!-- workflow: tokenPrice -->
 *   ...generated...                ...generated...
 *   <!-- /operations -->           <!-- /workflow -->
 *
 * test/readme.test.ts fails when one is stale; with BLOCKWIRE_UPDATE_README=1 it rewrites them.
 */
import { type ExampleValues, resourceWorkflows, triggerNode, type Workflow, workflow } from './workflows.ts';

const PREFIX = 'n8n-nodes-blockwire.';
/** n8n asks which of your credentials to use when you import a workflow that names another. */
const CREDENTIAL = { id: 'blockwireCredential', name: 'Blockwire account' };

/** USD Coin on Ethereum: a public contract address, named (a long value under `token` reads as a secret to n8n's linter). */
const USDC = '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48';

/** Values that exist at the real service (mainnet), for the examples to work as imported. */
const VALUES: ExampleValues = {
  webhookUrl: 'https://example.com/webhooks/bitcoin',
  evmStreamId: '3fa85f64-5717-4562-b3fc-2c963f66afa6',
  bitcoinBlock: 840_000,
  // The first Ethereum transaction (block 46147), and the USDC contract.
  transactionHash: '0x5c504ed432cb51138bcf09aa5e8a410dd4a1e204ef84bfed1be16dfba1b22060',
  contract: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48',
  // vitalik.eth and a Binance hot wallet.
  accounts: ['0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045', '0x28C6c06298d514Db089934071355E5743bf21d60'],
  token: USDC,
};

export function readmeWorkflows(): Record<string, Workflow> {
  return {
    ...resourceWorkflows(PREFIX, CREDENTIAL, VALUES),
    bitcoinTrigger: workflow('bwTreasuryWatch1', 'Blockwire: treasury payments', [
      triggerNode({
        prefix: PREFIX,
        credential: CREDENTIAL,
        parameters: {
          mode: 'bitcoin',
          addresses: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
          stages: ['confirmed'],
          options: { tag: 'treasury' },
        },
      }),
    ]),
  };
}

const WORKFLOW = /<!-- workflow: (\w+) -->\n[\s\S]*?<!-- \/workflow -->/g;
const OPERATIONS = /<!-- operations -->\n[\s\S]*?<!-- \/operations -->/g;
const fence = '```';

export interface DocumentedAction {
  resource: string;
  action: string;
  displayName: string;
  summary: string;
}

/** The markdown table of every resource and operation, with the values workflows use. */
export function operationsTable(
  actions: readonly DocumentedAction[],
  resourceLabel: (resource: string) => string,
): string {
  const rows = actions.map(
    (action) =>
      `| ${resourceLabel(action.resource)} (\`${action.resource}\`) | ${action.displayName} (\`${action.action}\`) | ${action.summary.replace(/\|/g, '\\|')} |`,
  );
  return ['| Resource | Operation | What it does |', '| --- | --- | --- |', ...rows].join('\n');
}

/** The README with every marked part regenerated; throws on a marker naming no workflow. */
export function renderReadme(
  text: string,
  operations: string,
  workflows: Record<string, Workflow> = readmeWorkflows(),
): string {
  const withTable = text.replace(
    OPERATIONS,
    () => `<!-- operations -->\n${operations}\n<!-- /operations -->`,
  );
  return withTable.replace(WORKFLOW, (_whole, name: string) => {
    const found = workflows[name];
    if (!found)
      throw new Error(`README marker names workflow "${name}", which readme-workflows.ts does not build`);
    return [
      `<!-- workflow: ${name} -->`,
      '<!-- not run: an n8n workflow to import (Workflows → Import from File, or paste it); made by the code that builds the workflows the e2e tests run in n8n -->',
      `${fence}json`,
      JSON.stringify(found, null, 2),
      fence,
      '<!-- /workflow -->',
    ].join('\n');
  });
}
