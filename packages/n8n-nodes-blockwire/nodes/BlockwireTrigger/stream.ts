import {
  type Client,
  NotFoundError,
  ValidationError,
  type ValidationIssue,
} from '@blockwire/core/operations';
import {
  addBitcoinStreamAddresses,
  addBitcoinStreamXpub,
  bitcoinAddressSchema,
  createBitcoinStream,
  deleteBitcoinStream,
  extendedPublicKeySchema,
  getBitcoinStream,
  setBitcoinStreamStatus,
  webhookUrlProblem,
} from '@blockwire/streams/operations';
import { type IDataObject, type IHookFunctions, NodeOperationError } from 'n8n-workflow';
import { blockwireClient } from '../shared/client';
import type { BlockwireCredentials } from '../shared/credentials';
import { toNodeError } from '../shared/errors';
import { listParameter } from '../shared/lists';
import type { TriggerMode } from './properties';

/** The node's static data: the Bitcoin stream it created. */
export interface TriggerStaticData extends IDataObject {
  streamId?: string;
  webhookUrl?: string;
  /** The addresses the service derived from the xpubs when they were added: watched too. */
  xpubAddresses?: string[];
}

interface StreamOptions {
  description?: string;
  tag?: string;
  includeInputs?: boolean;
  includeOutputs?: boolean;
}

const FIELD_LABELS: Record<string, string> = {
  addresses: 'Addresses',
  xpubs: 'Extended Public Keys',
  webhookUrl: 'Webhook URL',
  description: 'Description',
  tag: 'Tag',
};

const fieldLabel = (path: string) => FIELD_LABELS[path.split('.')[0] ?? ''];

function modeOf(context: IHookFunctions): TriggerMode {
  return context.getNodeParameter('mode', 'bitcoin') as TriggerMode;
}

function staticDataOf(context: IHookFunctions): TriggerStaticData {
  const staticData = context.getWorkflowStaticData('node') as TriggerStaticData;
  // Version 0.1.0 kept the deliveries it had seen here (up to ~200 kB); n8n's database does now.
  if ('seen' in staticData) delete staticData.seen;
  return staticData;
}

function forgetStream(staticData: TriggerStaticData): void {
  delete staticData.streamId;
  delete staticData.webhookUrl;
  delete staticData.xpubAddresses;
}

/**
 * Whether the Bitcoin stream this node created still exists at the service (404 = gone) and still
 * points at this workflow's URL. A stream the service stopped delivering to after failures
 * (`error`) is resumed. EVM mode registers nothing: false, so activation checks the credentials.
 */
export async function bitcoinStreamExists(this: IHookFunctions): Promise<boolean> {
  if (modeOf(this) !== 'bitcoin') return false;
  const staticData = staticDataOf(this);
  const id = staticData.streamId;
  if (!id) return false;
  const { client } = await blockwireClient(this);
  try {
    const stream = await getBitcoinStream(client, { id });
    if (stream.webhookUrl !== undefined && stream.webhookUrl !== this.getNodeWebhookUrl('default')) {
      // The workflow's webhook URL changed (WEBHOOK_URL, a new path): that stream posts elsewhere.
      await deleteIgnoringGone(this, client, id);
      forgetStream(staticData);
      return false;
    }
    if (stream.status === 'error') {
      this.logger.info(
        `Blockwire Trigger: resuming Bitcoin stream ${id}, which was in error: ${stream.statusMessage ?? ''}`,
      );
      await setBitcoinStreamStatus(client, { id, status: 'active' });
    }
    return true;
  } catch (error) {
    if (error instanceof NotFoundError) {
      forgetStream(staticData);
      return false;
    }
    throw toNodeError(this.getNode(), error, { redact: client.redact });
  }
}

/**
 * Bitcoin mode: creates the stream with this workflow's production webhook URL, then attaches the
 * addresses and xpubs; if any of that fails, the new stream is deleted again. EVM mode: checks
 * that the credentials can verify deliveries.
 */
export async function createBitcoinStreamForNode(this: IHookFunctions): Promise<boolean> {
  const { client, credentials } = await blockwireClient(this);
  requireWebhookSecret(this, credentials);
  if (modeOf(this) !== 'bitcoin') return true;

  const webhookUrl = this.getNodeWebhookUrl('default');
  if (!webhookUrl) throw new NodeOperationError(this.getNode(), 'n8n gave this trigger no webhook URL');
  checkWebhookUrl(this, webhookUrl, client.baseUrls.streams);
  const addresses = listParameter(this.getNodeParameter('addresses', ''));
  const xpubs = listParameter(this.getNodeParameter('xpubs', ''));
  const allAddresses = this.getNodeParameter('allAddresses', false) as boolean;
  const options = this.getNodeParameter('options', {}) as StreamOptions;
  const errorContext = { fieldLabel, redact: client.redact };
  try {
    checkWatchList(addresses, xpubs, allAddresses);
  } catch (error) {
    throw toNodeError(this.getNode(), error, errorContext);
  }

  const workflow = this.getWorkflow();
  let stream: { id: string };
  try {
    stream = await createBitcoinStream(client, {
      webhookUrl,
      description: options.description || `n8n workflow "${workflow.name ?? ''}" (${workflow.id ?? ''})`,
      ...(options.tag ? { tag: options.tag } : {}),
      includeInputs: options.includeInputs ?? false,
      includeOutputs: options.includeOutputs ?? true,
      allAddresses,
    });
  } catch (error) {
    throw toNodeError(this.getNode(), error, errorContext);
  }
  const staticData = staticDataOf(this);
  staticData.streamId = stream.id;
  staticData.webhookUrl = webhookUrl;
  try {
    const results = await addBitcoinStreamAddresses(client, { id: stream.id, addresses });
    const failed = results.filter((result) => !result.ok);
    if (failed.length > 0) {
      throw new NodeOperationError(
        this.getNode(),
        `Blockwire did not accept ${failed.length} of the addresses: ${failed
          .map((result) => `${result.address} (${result.ok ? '' : client.redact(result.error.message)})`)
          .join(', ')}`,
      );
    }
    const derived: string[] = [];
    for (const xpub of xpubs) {
      const added = await addBitcoinStreamXpub(client, { id: stream.id, xpub });
      derived.push(...(added?.receiveAddresses ?? []), ...(added?.changeAddresses ?? []));
    }
    staticData.xpubAddresses = derived;
  } catch (error) {
    await deleteIgnoringGone(this, client, stream.id).catch((cleanupError: unknown) => {
      this.logger.warn(
        `Blockwire Trigger: could not delete the half-set-up stream ${stream.id}: ${client.redact(String(cleanupError))}`,
      );
    });
    forgetStream(staticData);
    throw toNodeError(this.getNode(), error, errorContext);
  }
  return true;
}

/** Deletes the Bitcoin stream this node created; one already gone counts as deleted. */
export async function deleteBitcoinStreamOfNode(this: IHookFunctions): Promise<boolean> {
  if (modeOf(this) !== 'bitcoin') return true;
  const staticData = staticDataOf(this);
  const id = staticData.streamId;
  if (id) {
    const { client } = await blockwireClient(this);
    try {
      await deleteIgnoringGone(this, client, id);
    } catch (error) {
      this.logger.warn(
        `Blockwire Trigger: could not delete Bitcoin stream ${id}: ${client.redact(String(error))}`,
      );
      return false;
    }
  }
  forgetStream(staticData);
  return true;
}

async function deleteIgnoringGone(context: IHookFunctions, client: Client, id: string): Promise<void> {
  try {
    await deleteBitcoinStream(client, { id });
  } catch (error) {
    if (!(error instanceof NotFoundError))
      throw toNodeError(context.getNode(), error, { redact: client.redact });
  }
}

function requireWebhookSecret(context: IHookFunctions, credentials: BlockwireCredentials): void {
  if (typeof credentials.webhookSecret === 'string' && credentials.webhookSecret !== '') return;
  throw new NodeOperationError(context.getNode(), 'The Blockwire credentials have no Webhook Secret', {
    description:
      "Set Webhook Secret in the Blockwire API credentials to the project's secretKey (see Settings): the trigger refuses every delivery whose signature it cannot check.",
  });
}

/** The service posts only to public HTTPS endpoints; a local emulator takes any http(s) URL. */
function checkWebhookUrl(context: IHookFunctions, webhookUrl: string, streamsBaseUrl: string): void {
  const local = isLoopbackUrl(streamsBaseUrl);
  const problem = webhookUrlProblem(webhookUrl, { requirePublicHttps: !local });
  if (!problem) return;
  throw new NodeOperationError(context.getNode(), `Blockwire cannot deliver to ${webhookUrl}: ${problem}`, {
    description: local
      ? 'The webhook URL n8n reports for this workflow is not an http(s) URL.'
      : "Blockwire posts Bitcoin deliveries only to public HTTPS endpoints. Set n8n's WEBHOOK_URL to the public https:// address this n8n is reached at (a reverse proxy or a tunnel), restart n8n and activate the workflow again.",
  });
}

function isLoopbackUrl(value: string): boolean {
  let host: string;
  try {
    host = new URL(value).hostname.replace(/^\[|\]$/g, '').toLowerCase();
  } catch {
    return false;
  }
  return (
    host === 'localhost' || host.endsWith('.localhost') || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host)
  );
}

function checkWatchList(addresses: string[], xpubs: string[], allAddresses: boolean): void {
  const issues: ValidationIssue[] = [];
  addresses.forEach((address, index) => {
    const parsed = bitcoinAddressSchema.safeParse(address);
    if (!parsed.success)
      issues.push({
        path: `addresses.${index}`,
        message: `${shorten(address)} ${firstMessage(parsed.error)}`,
      });
  });
  xpubs.forEach((xpub, index) => {
    const parsed = extendedPublicKeySchema.safeParse(xpub);
    if (!parsed.success)
      issues.push({ path: `xpubs.${index}`, message: `${shorten(xpub)} ${firstMessage(parsed.error)}` });
  });
  if (addresses.length === 0 && xpubs.length === 0 && !allAddresses) {
    issues.push({
      path: 'addresses',
      message: 'are empty: watch at least one address or extended public key, or turn on All Addresses',
    });
  }
  if (issues.length > 0) throw new ValidationError(issues, { subject: 'Bitcoin stream settings' });
}

function firstMessage(error: { issues: readonly { message: string }[] }): string {
  return error.issues[0]?.message ?? 'is not valid';
}

function shorten(value: string): string {
  return value.length > 24 ? `${value.slice(0, 12)}…${value.slice(-8)}` : value;
}
