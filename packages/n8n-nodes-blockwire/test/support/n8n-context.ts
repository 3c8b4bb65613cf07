/**
 * Stand-ins for the n8n contexts the nodes run in, for unit tests: what each node method calls on
 * `this`, no more. `httpRequestWithAuthentication` really sends (fetch), with the headers the
 * Blockwire credential's own `authenticate` block names, so tests against the emulator exercise
 * the real transport and credential. The real n8n runs in the e2e tests.
 */
import { randomUUID } from 'node:crypto';
import {
  type IDataObject,
  type IExecuteFunctions,
  type IHookFunctions,
  type IHttpRequestOptions,
  type INode,
  type IPollFunctions,
  type IWebhookFunctions,
  sleep,
} from 'n8n-workflow';
import { BlockwireApi } from '../../credentials/BlockwireApi.credentials';
import { NODE_VERSIONS } from '../../nodes/Blockwire/description';
import type { BlockwireCredentials } from '../../nodes/shared/credentials';

export const NODE: INode = {
  id: 'a0c7a4f6-6c1e-4a8e-9f7a-2d8e0c1b3f45',
  name: 'Blockwire Trigger',
  type: 'CUSTOM.blockwireTrigger',
  typeVersion: 1,
  position: [0, 0],
  parameters: {},
};

export interface SentRequest {
  credentialType: string;
  options: IHttpRequestOptions;
  headers: Record<string, string>;
}

export interface FakeLogger {
  warnings: string[];
  infos: string[];
  debugs: string[];
}

/** n8n's logger, keeping what each level was given. */
function fakeLogger(): FakeLogger & Record<string, unknown> {
  const logger: FakeLogger & Record<string, unknown> = {
    warnings: [],
    infos: [],
    debugs: [],
    warn: (message: string) => logger.warnings.push(message),
    info: (message: string) => logger.infos.push(message),
    debug: (message: string) => logger.debugs.push(message),
    error: (message: string) => logger.warnings.push(message),
  };
  return logger;
}

const workflowIds = new WeakMap<object, string>();

/** One workflow per static data object: contexts sharing static data are the same trigger. */
function workflowIdOf(staticData: object): string {
  let id = workflowIds.get(staticData);
  if (!id) {
    id = randomUUID();
    workflowIds.set(staticData, id);
  }
  return id;
}

/** n8n's httpRequestWithAuthentication, over fetch, honouring the options the transport uses. */
export function fakeHttpRequestWithAuthentication(
  credentials: BlockwireCredentials,
  sent: SentRequest[] = [],
) {
  const authenticate = new BlockwireApi().authenticate;
  return async (credentialType: string, options: IHttpRequestOptions) => {
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(options.headers ?? {})) headers[name] = String(value);
    for (const [name, template] of Object.entries(authenticate.properties.headers ?? {})) {
      headers[name] = String(template).replace(/^=\{\{\s*\$credentials\.(\w+)\s*\}\}$/, (_, field: string) =>
        String(credentials[field as keyof BlockwireCredentials] ?? ''),
      );
    }
    sent.push({ credentialType, options, headers });
    const response = await fetch(options.url, {
      method: options.method ?? 'GET',
      headers,
      body: options.body as string | undefined,
      signal: options.abortSignal as AbortSignal | undefined,
    });
    const body = Buffer.from(await response.arrayBuffer());
    if (!options.ignoreHttpStatusErrors && response.status >= 400) throw new Error(`HTTP ${response.status}`);
    const responseHeaders: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      responseHeaders[name] = value;
    });
    return { statusCode: response.status, headers: responseHeaders, body };
  };
}

interface ContextOptions {
  parameters: IDataObject;
  /** The workflow the node belongs to; a new one per context unless given. */
  workflowId?: string;
  credentials: BlockwireCredentials;
  staticData?: IDataObject;
  sent?: SentRequest[];
  /** n8n's execution mode: 'webhook' (production) unless given ('manual': a test webhook). */
  mode?: string;
}

function base(options: ContextOptions) {
  const logger = fakeLogger();
  const staticData = options.staticData ?? {};
  const workflowId = options.workflowId ?? workflowIdOf(staticData);
  return {
    logger,
    staticData,
    context: {
      logger,
      getNode: () => NODE,
      getNodeParameter: (name: string, fallback?: unknown) =>
        name in options.parameters ? options.parameters[name] : fallback,
      getCredentials: async () => options.credentials,
      getWorkflowStaticData: () => staticData,
      getWorkflow: () => ({ id: workflowId, name: 'Payments', active: true }),
      getMode: () => options.mode ?? 'webhook',
      helpers: {
        httpRequestWithAuthentication: fakeHttpRequestWithAuthentication(options.credentials, options.sent),
      },
    },
  };
}

/** `this` of webhookMethods (activation, deactivation). */
export function hookContext(options: ContextOptions & { webhookUrl: string }) {
  const { context, logger, staticData } = base(options);
  const hook = { ...context, getNodeWebhookUrl: () => options.webhookUrl } as unknown as IHookFunctions;
  return { hook, logger, staticData };
}

/**
 * `this` of a polling trigger's poll(): parameters read without an item index, like n8n's
 * PollContext; `staticData` is the workflow's node static data (pass the same object to "restart").
 */
export function pollContext(options: ContextOptions) {
  const { context, logger, staticData } = base({ mode: 'trigger', ...options });
  const poll = {
    ...context,
    getNode: () => ({ ...NODE, name: 'Blockwire Price Trigger', type: 'CUSTOM.blockwirePriceTrigger' }),
  } as unknown as IPollFunctions;
  return { poll, logger, staticData };
}

export interface RecordedResponse {
  status?: number;
  body?: unknown;
}

/** `this` of webhook(): one incoming POST with its raw body and headers. */
export function webhookContext(
  options: ContextOptions & { rawBody: string; headers?: Record<string, string> },
) {
  const { context, logger, staticData } = base(options);
  const response: RecordedResponse = {};
  const rawBody = Buffer.from(options.rawBody, 'utf8');
  // n8n parses the body before any node sees it (up to N8N_PAYLOAD_SIZE_MAX): once, here too.
  const bodyData = options.rawBody.trim() === '' ? {} : JSON.parse(options.rawBody);
  const res = {
    status(code: number) {
      response.status = code;
      return res;
    },
    json(body: unknown) {
      response.body = body;
      return res;
    },
  };
  const webhook = {
    ...context,
    getRequestObject: () => ({ rawBody }),
    getResponseObject: () => res,
    getBodyData: () => bodyData,
    getHeaderData: () => options.headers ?? {},
  } as unknown as IWebhookFunctions;
  return { webhook, logger, staticData, response };
}

/** `this` of execute(): `count` input items, each with its own parameters. */
export function executeContext(options: {
  parameters: IDataObject | ((itemIndex: number) => IDataObject);
  count?: number;
  credentials: BlockwireCredentials;
  continueOnFail?: boolean;
  sent?: SentRequest[];
  /** The node's version in the workflow: the latest unless given (a saved older node: 1). */
  typeVersion?: number;
}) {
  const parametersOf = (index: number) =>
    typeof options.parameters === 'function' ? options.parameters(index) : options.parameters;
  const count = options.count ?? 1;
  const logger = fakeLogger();
  const execute = {
    logger,
    getNode: () => ({
      ...NODE,
      name: 'Blockwire',
      type: 'CUSTOM.blockwire',
      typeVersion: options.typeVersion ?? NODE_VERSIONS[NODE_VERSIONS.length - 1]!,
    }),
    getInputData: () => Array.from({ length: count }, (_, index) => ({ json: { index } })),
    getNodeParameter: (name: string, index: number, fallback?: unknown) => {
      const parameters = parametersOf(index);
      if (name in parameters) return parameters[name];
      if (fallback !== undefined) return fallback;
      throw new Error(`Could not get parameter "${name}"`);
    },
    getCredentials: async () => options.credentials,
    continueOnFail: () => options.continueOnFail ?? false,
    getExecutionCancelSignal: () => undefined,
    helpers: {
      httpRequestWithAuthentication: fakeHttpRequestWithAuthentication(options.credentials, options.sent),
    },
  } as unknown as IExecuteFunctions;
  return { execute, logger };
}

/**
 * n8n's deduplication store (`processed_data`, what `helpers.checkProcessedAndRecord` uses), as
 * n8n 2.41 implements it for mode `entries`: one row per node holding its key list; a call reads
 * the row, and after `gapMs` (the database round trip) writes the whole list back — no lock, so a
 * concurrent call's keys can be overwritten; two first calls both insert, and one insert fails.
 */
export function processedDataStore(options: { gapMs?: number } = {}) {
  const rows = new Map<string, string[]>();
  const calls: { keys: string[]; maxEntries?: number }[] = [];
  return {
    rows,
    calls,
    async checkProcessedAndRecord(row: string, keys: string[], maxEntries?: number) {
      calls.push({ keys, maxEntries });
      const read = rows.get(row);
      const list = read ? [...read] : undefined;
      await sleep(options.gapMs ?? 0);
      if (!list) {
        if (rows.has(row))
          throw new Error('duplicate key value violates unique constraint "PK_processed_data"');
        rows.set(row, maxEntries ? keys.slice(-maxEntries) : [...keys]);
        return { new: keys, processed: [] };
      }
      const known = new Set(list);
      const fresh = keys.filter((key) => !known.has(key));
      list.push(...fresh);
      rows.set(row, maxEntries ? list.slice(-maxEntries) : list);
      return { new: fresh, processed: keys.filter((key) => known.has(key)) };
    },
  };
}

export type ProcessedDataStore = ReturnType<typeof processedDataStore>;

/** `this` of the trigger's execute(): the items its webhook() emitted, and n8n's deduplication store. */
export function triggerExecuteContext(options: {
  parameters: IDataObject;
  items: IDataObject[];
  store: ProcessedDataStore;
  credentials?: Record<string, IDataObject>;
  workflowId?: string;
  mode?: string;
}) {
  const logger = fakeLogger();
  const workflowId = options.workflowId ?? 'workflow-1';
  const execute = {
    logger,
    getNode: () => NODE,
    getMode: () => options.mode ?? 'webhook',
    getWorkflow: () => ({ id: workflowId, name: 'Payments', active: true }),
    getInputData: () => options.items.map((json) => ({ json })),
    getCredentials: async (type: string) => {
      const credentials = options.credentials?.[type];
      if (!credentials) throw new Error(`no credentials of type ${type}`);
      return credentials;
    },
    getNodeParameter: (name: string, _index: number, fallback?: unknown) =>
      name in options.parameters ? options.parameters[name] : fallback,
    helpers: {
      checkProcessedAndRecord: async (
        keys: (string | number)[],
        scope: string,
        settings: { mode: string; maxEntries?: number },
      ) => {
        if (scope !== 'node' || settings.mode !== 'entries') throw new Error('unexpected deduplication call');
        return await options.store.checkProcessedAndRecord(
          `${workflowId} n:${NODE.id}`,
          keys.map(String),
          settings.maxEntries,
        );
      },
    },
  } as unknown as IExecuteFunctions;
  return { execute, logger };
}
