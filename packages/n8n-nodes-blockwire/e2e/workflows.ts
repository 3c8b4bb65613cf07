/**
 * The credentials and workflows the e2e tests import into n8n, in n8n's import format. Node types
 * take a prefix: `CUSTOM.` for a package loaded through N8N_CUSTOM_EXTENSIONS (the tests),
 * `n8n-nodes-blockwire.` once installed as a community package (the README's examples).
 */
import { createHash } from 'node:crypto';

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
  /** By credential type: `blockwireApi`, or one of n8n's own (`httpHeaderAuth`). */
  credentials?: Record<string, CredentialRef>;
  webhookId?: string;
  /** Run once with the first input item, whatever the node before emitted. */
  executeOnce?: boolean;
  /** Settings → Always Output Data: one empty item out where the node would give none. */
  alwaysOutputData?: boolean;
}

export interface Workflow {
  id: string;
  name: string;
  active: boolean;
  nodes: WorkflowNode[];
  connections: Record<string, { main: { node: string; type: 'main'; index: number }[][] }>;
  settings: Record<string, unknown>;
}

/** A UUID made from names, so a workflow comes out the same each time (README examples stay put). */
export function stableId(...parts: string[]): string {
  const hex = createHash('sha256').update(parts.join('\u0000')).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

export function credentialImport(
  ref: CredentialRef,
  data: Record<string, string | number>,
  type: 'blockwireApi' | 'blockwirePostgresApi' = 'blockwireApi',
) {
  return { id: ref.id, name: ref.name, type, data };
}

export function triggerNode(options: {
  prefix: string;
  credential: CredentialRef;
  parameters: Record<string, unknown>;
  webhookId?: string;
  /**
   * A Blockwire Repeat Store (PostgreSQL) credential: the node is then the Blockwire Trigger
   * (PostgreSQL) of n8n-nodes-blockwire-postgres (`prefix` is that package's).
   */
  repeatStore?: CredentialRef;
}): WorkflowNode {
  return {
    id: stableId('trigger', options.webhookId ?? ''),
    name: 'Blockwire Trigger',
    type: `${options.prefix}${options.repeatStore ? 'blockwireTriggerPostgres' : 'blockwireTrigger'}`,
    typeVersion: 1,
    position: [0, 0],
    webhookId: options.webhookId ?? stableId('webhook', JSON.stringify(options.parameters)),
    parameters: options.parameters,
    credentials: {
      blockwireApi: options.credential,
      ...(options.repeatStore ? { blockwirePostgresApi: options.repeatStore } : {}),
    },
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

/** n8n's own nodes the workflows start with. */
const MANUAL_TRIGGER = 'n8n-nodes-base.manualTrigger';

export function manualTrigger(): WorkflowNode {
  return {
    id: stableId('manual trigger'),
    name: 'When clicking Execute',
    type: MANUAL_TRIGGER,
    typeVersion: 1,
    position: [0, 0],
    parameters: {},
  };
}

/** The Blockwire node's version new nodes get (2: Chain of EVM prices is a top-level dropdown). */
export const ACTION_NODE_VERSION = 2;

/** A Blockwire action node that runs once, whatever the node before it emitted. */
export function actionNode(
  prefix: string,
  credential: CredentialRef,
  name: string,
  parameters: Record<string, unknown>,
  typeVersion = ACTION_NODE_VERSION,
): WorkflowNode {
  return {
    id: stableId('blockwire', name),
    name,
    type: `${prefix}blockwire`,
    typeVersion,
    position: [0, 0],
    executeOnce: true,
    parameters,
    credentials: { blockwireApi: credential },
  };
}

/** The values the examples act on: from the emulator in tests, illustrative ones in the README. */
export interface ExampleValues {
  /** Where the example Bitcoin stream posts (the service needs a public HTTPS URL). */
  webhookUrl: string;
  /** An existing EVM stream. */
  evmStreamId: string;
  /** A Bitcoin block height that exists. */
  bitcoinBlock: number;
  /** A transaction hash and a contract address on the JSON-RPC chain. */
  transactionHash: string;
  contract: string;
  /** Accounts whose balances the wallet workflow reads, one item each. */
  accounts: readonly string[];
  /** An ERC-20 token whose balance of each account the wallet workflow reads. */
  token: string;
}

const first = (node: string, field: string) => `={{ $('${node}').first().json.${field} }}`;

/**
 * One workflow per resource that runs every operation of it once, in an order where each can use
 * what an earlier one returned (a created stream's id, a block's hash).
 */
export function resourceWorkflows(
  prefix: string,
  credential: CredentialRef,
  values: ExampleValues,
): Record<string, Workflow> {
  const step = (name: string, parameters: Record<string, unknown>) =>
    actionNode(prefix, credential, name, parameters);
  const chain = (nodes: WorkflowNode[]) =>
    nodes.map((node, index) => ({ ...node, position: [index * 220, 0] as [number, number] }));
  return {
    tokenPrice: workflow(
      'bwTokenPriceDemo',
      'Blockwire: token prices',
      chain([
        manualTrigger(),
        step('USDC on Ethereum', {
          resource: 'tokenPrice',
          operation: 'getEvm',
          address: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48',
        }),
        step('WETH on Polygon by chain id', {
          resource: 'tokenPrice',
          operation: 'getEvm',
          address: '0x7ceb23fd6bc0add59e62ac25578270cff1b9f619',
          chain: '={{ "0x89" }}',
        }),
        step('Solana prices', {
          resource: 'tokenPrice',
          operation: 'getSolana',
          addresses:
            'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v\nSo11111111111111111111111111111111111111112',
        }),
      ]),
    ),
    entity: workflow(
      'bwEntityDemo0001',
      'Blockwire: entities',
      chain([
        manualTrigger(),
        step('Get Binance', { resource: 'entity', operation: 'get', entityId: 'binance' }),
        step('Search', {
          resource: 'entity',
          operation: 'search',
          query: 'binance',
          returnAll: false,
          limit: 5,
        }),
        step('Categories', { resource: 'entity', operation: 'getCategories' }),
        step('Exchanges', {
          resource: 'entity',
          operation: 'getByCategory',
          categoryId: first('Categories', 'id'),
          returnAll: true,
        }),
      ]),
    ),
    evmStream: workflow(
      'bwEvmStreamDemo1',
      'Blockwire: EVM stream status',
      chain([
        manualTrigger(),
        step('Pause', {
          resource: 'evmStream',
          operation: 'updateStatus',
          id: values.evmStreamId,
          status: 'paused',
        }),
        step('Resume', {
          resource: 'evmStream',
          operation: 'updateStatus',
          id: values.evmStreamId,
          status: 'active',
        }),
      ]),
    ),
    settings: workflow(
      'bwSettingsDemo01',
      'Blockwire: settings',
      chain([
        manualTrigger(),
        step('Send webhooks from Frankfurt', {
          resource: 'settings',
          operation: 'update',
          additionalFields: { region: 'eu-central-1' },
        }),
      ]),
    ),
    bitcoinStream: workflow(
      'bwBitcoinDemo001',
      'Blockwire: Bitcoin stream lifecycle',
      chain([
        manualTrigger(),
        step('Create', {
          resource: 'bitcoinStream',
          operation: 'create',
          webhookUrl: values.webhookUrl,
          additionalFields: { description: 'Treasury', tag: 'treasury', includeOutputs: true },
        }),
        step('Get', { resource: 'bitcoinStream', operation: 'get', id: first('Create', 'id') }),
        step('Get Many', { resource: 'bitcoinStream', operation: 'getMany', returnAll: true }),
        step('Update', {
          resource: 'bitcoinStream',
          operation: 'update',
          id: first('Create', 'id'),
          additionalFields: { description: 'Treasury and payroll' },
        }),
        step('Pause', {
          resource: 'bitcoinStream',
          operation: 'setStatus',
          id: first('Create', 'id'),
          status: 'paused',
        }),
        step('Resume', {
          resource: 'bitcoinStream',
          operation: 'setStatus',
          id: first('Create', 'id'),
          status: 'active',
        }),
        step('Add Addresses', {
          resource: 'bitcoinStream',
          operation: 'addAddress',
          id: first('Create', 'id'),
          addresses: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq\n1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa',
        }),
        step('Get Addresses', {
          resource: 'bitcoinStream',
          operation: 'getAddresses',
          id: first('Create', 'id'),
          returnAll: true,
        }),
        step('Remove Address', {
          resource: 'bitcoinStream',
          operation: 'removeAddress',
          id: first('Create', 'id'),
          address: '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa',
        }),
        step('Add Xpub', {
          resource: 'bitcoinStream',
          operation: 'addXpub',
          id: first('Create', 'id'),
          xpub: 'zpub6rFR7y4Q2AijBEqTUquhVz398htDFrtymD9xYYfG1m4wAcvPhXNfE3EfH1r1ADqtfSdVCToUG868RvUUkgDKf31mGDtKsAYz2oz2AGutZYs',
        }),
        step('Get Xpubs', {
          resource: 'bitcoinStream',
          operation: 'getXpubs',
          id: first('Create', 'id'),
          returnAll: true,
        }),
        step('Remove Xpub', {
          resource: 'bitcoinStream',
          operation: 'removeXpub',
          id: first('Create', 'id'),
          xpubId: first('Get Xpubs', 'id'),
        }),
        step('Block Data', {
          resource: 'bitcoinStream',
          operation: 'getBlockData',
          chainId: 'mainnet',
          blockNumber: values.bitcoinBlock,
          simplify: true,
        }),
        step('Replay Block', {
          resource: 'bitcoinStream',
          operation: 'replayBlock',
          chainId: 'mainnet',
          blockNumber: values.bitcoinBlock,
          streamId: first('Create', 'id'),
        }),
        step('Delete', { resource: 'bitcoinStream', operation: 'delete', id: first('Create', 'id') }),
      ]),
    ),
    wallet: walletWorkflow(prefix, credential, values),
    rpc: workflow(
      'bwJsonRpcDemo001',
      'Blockwire: JSON-RPC node',
      chain([
        manualTrigger(),
        step('Block 2', { resource: 'rpc', operation: 'getBlockByNumber', chain: 'eth', blockTag: '2' }),
        step('Same block by hash', {
          resource: 'rpc',
          operation: 'getBlockByHash',
          chain: '={{ "0x1" }}',
          hash: first('Block 2', 'hash'),
          options: { fullTransactions: true },
          simplify: true,
        }),
        step('Uncle by hash', {
          resource: 'rpc',
          operation: 'getUncleByBlockHashAndIndex',
          chain: 'eth',
          hash: first('Block 2', 'hash'),
          index: '0',
        }),
        step('Uncle by number', {
          resource: 'rpc',
          operation: 'getUncleByBlockNumberAndIndex',
          chain: 'eth',
          blockTag: '2',
          index: '0',
        }),
        step('Receipts of block 2', {
          resource: 'rpc',
          operation: 'getBlockReceipts',
          chain: 'eth',
          blockTag: '2',
        }),
        step('Transaction', {
          resource: 'rpc',
          operation: 'getTransactionByHash',
          chain: 'eth',
          hash: values.transactionHash,
        }),
        step('Receipt', {
          resource: 'rpc',
          operation: 'getTransactionReceipt',
          chain: 'eth',
          hash: values.transactionHash,
        }),
        step('Proof', {
          resource: 'rpc',
          operation: 'getProof',
          chain: 'eth',
          address: values.contract,
          storageKeys: `0x${'0'.repeat(64)}`,
          options: { blockTag: 'latest' },
          simplify: true,
        }),
      ]),
    ),
  };
}

/** n8n's Webhook node: the workflow starts on a POST to `/webhook/<path>` (production URL). */
export function webhookTrigger(path: string): WorkflowNode {
  return {
    id: stableId('webhook trigger', path),
    name: 'Webhook',
    type: 'n8n-nodes-base.webhook',
    typeVersion: 2,
    position: [0, 0],
    webhookId: stableId('webhook', path),
    parameters: { httpMethod: 'POST', path, responseMode: 'onReceived' },
  };
}

/**
 * A watch-list of wallets: one item per account (a Code node), then each one's balance and token
 * balance, each read by one Blockwire node for all items (their calls go out as JSON-RPC
 * batches), then the chain's block number and gas price once.
 */
export function walletWorkflow(prefix: string, credential: CredentialRef, values: ExampleValues): Workflow {
  const accounts: WorkflowNode = {
    id: stableId('code', 'Watched wallets'),
    name: 'Watched wallets',
    type: 'n8n-nodes-base.code',
    typeVersion: 2,
    position: [220, 0],
    parameters: {
      jsCode: `return ${JSON.stringify(values.accounts)}.map((address) => ({ json: { address } }));`,
    },
  };
  const perItem = (name: string, parameters: Record<string, unknown>) => ({
    ...actionNode(prefix, credential, name, { resource: 'wallet', chain: 'eth', ...parameters }),
    executeOnce: false,
  });
  const nodes = [
    manualTrigger(),
    accounts,
    perItem('Balances', { operation: 'getBalance', address: '={{ $json.address }}' }),
    perItem('Token balances', {
      operation: 'getTokenBalance',
      token: values.token,
      owner: "={{ $('Watched wallets').item.json.address }}",
    }),
    actionNode(prefix, credential, 'Block number', {
      resource: 'wallet',
      operation: 'getBlockNumber',
      chain: 'eth',
    }),
    actionNode(prefix, credential, 'Gas price', {
      resource: 'wallet',
      operation: 'getGasPrice',
      chain: 'eth',
    }),
  ];
  return workflow(
    'bwWalletWatch001',
    'Blockwire: wallet balances',
    nodes.map((node, index) => ({ ...node, position: [index * 220, 0] as [number, number] })),
  );
}

/** The Code node that starts the Solana batch: one item per address, `{ address }`. */
export function solanaItemsNode(addresses: readonly string[]): WorkflowNode {
  const items = JSON.stringify(addresses);
  return {
    id: stableId('code', 'One item per token'),
    name: 'One item per token',
    type: 'n8n-nodes-base.code',
    typeVersion: 2,
    position: [220, 0],
    parameters: { jsCode: `return ${items}.map((address) => ({ json: { address } }));` },
  };
}

/** The Blockwire node pricing every item's `address` (it batches them, 100 addresses a request). */
export function solanaPricesNode(prefix: string, credential: CredentialRef): WorkflowNode {
  return {
    ...actionNode(prefix, credential, 'Solana prices', {
      resource: 'tokenPrice',
      operation: 'getSolana',
      addresses: '={{ $json.address }}',
    }),
    executeOnce: false,
    position: [440, 0],
  };
}

/**
 * 1,000 items, one Solana token each, priced by one Blockwire node (batched into 10 requests).
 * Started by hand by default; `start` puts another trigger first (a webhook, to run it on a
 * queue-mode worker), under another workflow id.
 */
export function solanaBatchWorkflow(
  prefix: string,
  credential: CredentialRef,
  addresses: readonly string[],
  options: { start?: WorkflowNode; id?: string } = {},
): Workflow {
  const nodes = [
    options.start ?? manualTrigger(),
    solanaItemsNode(addresses),
    solanaPricesNode(prefix, credential),
  ];
  return workflow(options.id ?? 'bwSolanaBatch001', 'Blockwire: 1,000 Solana prices', nodes);
}

/**
 * The same lookup with n8n's own HTTP Request node, as a user without the Blockwire node builds
 * it: a POST of the item's address to the Solana price endpoint for every item (the node sends
 * one request per item; its "Batching" option only spaces them out, so it is left off), the key
 * in a Header Auth credential. The endpoint's array answer becomes one item per price, as the
 * Blockwire node's does.
 */
export function httpRequestSolanaPricesNode(options: {
  /** The Solana interface's base URL (`{solana_url}` of the contract). */
  solanaUrl: string;
  /** An `httpHeaderAuth` credential: name `X-Api-Key`, value the key. */
  credential: CredentialRef;
  /** The request's `addresses`, an expression: the item's one address unless said otherwise. */
  addressesExpression?: string;
}): WorkflowNode {
  return {
    id: stableId('http request', 'Solana prices'),
    name: 'Solana prices',
    type: 'n8n-nodes-base.httpRequest',
    typeVersion: 4.2,
    position: [440, 0],
    parameters: {
      method: 'POST',
      url: `${options.solanaUrl.replace(/\/$/, '')}/token/mainnet/prices`,
      authentication: 'genericCredentialType',
      genericAuthType: 'httpHeaderAuth',
      sendBody: true,
      specifyBody: 'json',
      jsonBody: `={{ JSON.stringify({ addresses: ${options.addressesExpression ?? '[$json.address]'} }) }}`,
      options: {},
    },
    credentials: { httpHeaderAuth: options.credential },
  };
}

/** `solanaBatchWorkflow` with n8n's HTTP Request node in place of the Blockwire node. */
export function solanaHttpRequestWorkflow(options: {
  solanaUrl: string;
  credential: CredentialRef;
  addresses: readonly string[];
}): Workflow {
  const nodes = [
    manualTrigger(),
    solanaItemsNode(options.addresses),
    httpRequestSolanaPricesNode({ solanaUrl: options.solanaUrl, credential: options.credential }),
  ];
  return workflow('bwSolanaHttpReq1', 'HTTP Request node: 1,000 Solana prices', nodes);
}

/** Addresses the Solana price endpoint takes in one call (the contract's limit, the Blockwire node's chunk). */
export const SOLANA_ADDRESSES_PER_CALL = 100;

/**
 * The same lookup batched with n8n's own nodes, as a user who wants 100 addresses a request builds
 * it: Loop Over Items (Split in Batches 3, batch size 100) → Aggregate (the batch's `address`
 * fields into one `addresses` list) → HTTP Request (one POST of those addresses, the same node as
 * above otherwise) → back to the loop, whose "done" output, connected to nothing, ends the
 * workflow with every answer. The HTTP Request node has Always Output Data on: an answer without
 * any price (`[]`) gives no item, n8n runs no node on no items, and the loop would stop at the
 * first batch without a price; with it, such a batch gives one empty item (`{}`) and the loop goes
 * on. Started by hand by default; `start` puts another trigger first (the bench's webhook).
 */
export function solanaHttpRequestAggregateWorkflow(
  options: Parameters<typeof solanaHttpRequestWorkflow>[0] & { start?: WorkflowNode; id?: string },
): Workflow {
  const loop: WorkflowNode = {
    id: stableId('loop over items', 'Solana prices'),
    name: 'Loop Over Items',
    type: 'n8n-nodes-base.splitInBatches',
    typeVersion: 3,
    position: [440, 0],
    parameters: { batchSize: SOLANA_ADDRESSES_PER_CALL, options: {} },
  };
  const aggregate: WorkflowNode = {
    id: stableId('aggregate', 'Solana prices'),
    name: 'Aggregate',
    type: 'n8n-nodes-base.aggregate',
    typeVersion: 1,
    position: [660, 100],
    parameters: {
      aggregate: 'aggregateIndividualFields',
      fieldsToAggregate: {
        fieldToAggregate: [{ fieldToAggregate: 'address', renameField: true, outputFieldName: 'addresses' }],
      },
      options: {},
    },
  };
  const request: WorkflowNode = {
    ...httpRequestSolanaPricesNode({
      solanaUrl: options.solanaUrl,
      credential: options.credential,
      addressesExpression: '$json.addresses',
    }),
    position: [880, 100],
    alwaysOutputData: true,
  };
  const to = (node: WorkflowNode) => [{ node: node.name, type: 'main' as const, index: 0 }];
  const linear = workflow(
    options.id ?? 'bwSolanaHttpAgg1',
    'Aggregate + HTTP Request nodes: 1,000 Solana prices, 100 a request',
    [options.start ?? manualTrigger(), solanaItemsNode(options.addresses), loop],
  );
  return {
    ...linear,
    nodes: [...linear.nodes, aggregate, request],
    connections: {
      ...linear.connections,
      // Output 0 is "done" (every item that came back round the loop), output 1 "loop" (the batch).
      [loop.name]: { main: [[], to(aggregate)] },
      [aggregate.name]: { main: [to(request)] },
      [request.name]: { main: [to(loop)] },
    },
  };
}

/** An n8n Header Auth credential in n8n's import format (the HTTP Request node's API key). */
export function headerAuthCredentialImport(ref: CredentialRef, header: { name: string; value: string }) {
  return { id: ref.id, name: ref.name, type: 'httpHeaderAuth', data: header };
}
