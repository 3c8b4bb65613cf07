import { ValidationError } from '@blockwire/core/operations';
import {
  type BitcoinDeliveryStage,
  bitcoinDeliveryStage,
  isVerificationRequest,
  parseBitcoinWebhook,
  parseEvmWebhook,
  verifyRawSignature,
  verifySignature,
} from '@blockwire/streams/operations';
import {
  type IDataObject,
  type IExecuteFunctions,
  type INodeExecutionData,
  type IWebhookFunctions,
  type IWebhookResponseData,
  NodeOperationError,
} from 'n8n-workflow';
import { type BlockwireCredentials, CREDENTIAL_TYPE } from '../shared/credentials';
import { toNodeError } from '../shared/errors';
import { listParameter } from '../shared/lists';
import { bitcoinTransactionItem } from './bitcoin-items';
import type { TriggerMode } from './properties';
import {
  firstSightings,
  N8N_REPEAT_STORE,
  type RepeatStore,
  recordedByAnExecution,
  repeatScope,
} from './repeats';
import type { TriggerStaticData } from './stream';

/** Answered with n8n's default 200 and no workflow run. */
const NOTHING_TO_RUN: IWebhookResponseData = {};

/**
 * Handles one POST from the service. The verification POST (empty, unsigned) gets 200 and starts
 * nothing; a missing or wrong `x-signature` gets 401 and starts nothing; a signed delivery that
 * does not parse is logged and answered 200 (a retry would not fix it). Everything else starts the
 * workflow: Bitcoin mode with one item per transaction of a selected stage, EVM mode with the
 * payload. Repeats are dropped by the trigger's step in the execution (`dropRepeats`), which has
 * n8n's database at hand: in queue mode this runs in a webhook process, that on a worker. A
 * delivery whose every item an execution in this process already recorded (regular mode) is a
 * certain repeat: it is answered 200 here, and no execution starts for it.
 */
export async function receiveDelivery(this: IWebhookFunctions): Promise<IWebhookResponseData> {
  const signed = await isSignedDelivery(this);
  if (signed === 'verification') return NOTHING_TO_RUN;
  if (!signed) {
    this.getResponseObject()
      .status(401)
      .json({ message: 'The x-signature header is missing or does not match the webhook secret' });
    return { noWebhookResponse: true };
  }
  // n8n has parsed the body already (it parses before any node sees it): use that, parse nothing.
  const body: unknown = this.getBodyData();
  const mode = this.getNodeParameter('mode', 'bitcoin') as TriggerMode;
  let items: INodeExecutionData[];
  try {
    items = mode === 'bitcoin' ? bitcoinItems(this, body) : evmItems(body);
  } catch (error) {
    if (!(error instanceof ValidationError)) throw toNodeError(this.getNode(), error);
    this.logger.warn(
      `Blockwire Trigger: a signed delivery was not a valid ${mode} payload, ignored: ${error.message}`,
    );
    return NOTHING_TO_RUN;
  }
  if (items.length === 0 || isKnownRepeat(this, mode, items)) return NOTHING_TO_RUN;
  return { workflowData: [items] };
}

/** Whether every item's key was recorded by an execution in this process (see `recordedByAnExecution`). */
function isKnownRepeat(context: IWebhookFunctions, mode: TriggerMode, items: INodeExecutionData[]): boolean {
  // A test webhook (manual mode) always runs: it must show the delivery it was sent.
  if (context.getMode() === 'manual') return false;
  const keys = items.map((item) => repeatKey(mode, item.json));
  if (keys.some((key) => key === undefined)) return false;
  const known = recordedByAnExecution(repeatScope(context), keys as string[]);
  if (known)
    context.logger.info(`Blockwire Trigger: a repeated delivery answered without an execution: ${keys[0]}`);
  return known;
}

/**
 * The signature, checked on the bytes as received before anything of ours parses them; without
 * one, only the verification POST (looked at in n8n's parsed body, never re-parsed) passes.
 */
async function isSignedDelivery(context: IWebhookFunctions): Promise<boolean | 'verification'> {
  const header = context.getHeaderData()['x-signature'];
  const signature = Array.isArray(header) ? header[0] : header;
  const { rawBody } = context.getRequestObject() as { rawBody?: Buffer };
  const raw = rawBody && rawBody.length > 0 ? rawBody : undefined;
  if (typeof signature !== 'string' || signature.trim() === '') {
    return isVerificationRequest(raw === undefined ? '' : context.getBodyData()) && 'verification';
  }
  const credentials = await context.getCredentials<BlockwireCredentials>(CREDENTIAL_TYPE);
  const secret = typeof credentials.webhookSecret === 'string' ? credentials.webhookSecret : '';
  if (secret === '') return false;
  // Without the raw bytes (an n8n that keeps none), only n8n's parsed body can be checked.
  return raw === undefined
    ? await verifySignature({ body: context.getBodyData(), signature, secret })
    : await verifyRawSignature({ body: raw, signature, secret });
}

function bitcoinItems(context: IWebhookFunctions, body: unknown): INodeExecutionData[] {
  const payload = parseBitcoinWebhook(body);
  const stage = bitcoinDeliveryStage(payload);
  const stages = context.getNodeParameter('stages', []) as BitcoinDeliveryStage[];
  if (!stages.includes(stage)) return [];
  const watched = watchedAddresses(context);
  return payload.transactions.map((tx) => ({ json: bitcoinTransactionItem(payload, stage, tx, watched) }));
}

/** The Addresses parameter and the addresses the service derived from the xpubs at activation. */
function watchedAddresses(context: IWebhookFunctions): Set<string> {
  const { xpubAddresses } = context.getWorkflowStaticData('node') as TriggerStaticData;
  return new Set([...listParameter(context.getNodeParameter('addresses', '')), ...(xpubAddresses ?? [])]);
}

function evmItems(body: unknown): INodeExecutionData[] {
  return [{ json: parseEvmWebhook(body) as IDataObject }];
}

/**
 * What makes a delivery the same as an earlier one: a transaction at a stage (Bitcoin), a stream's
 * block with its confirmed flag (EVM). Undefined for an item that does not say (edited test data).
 */
export function repeatKey(mode: TriggerMode, json: IDataObject): string | undefined {
  if (mode === 'bitcoin') {
    return typeof json.txid === 'string' && typeof json.stage === 'string'
      ? `bitcoin ${json.txid} ${json.stage}`
      : undefined;
  }
  const block = (json.block ?? {}) as IDataObject;
  const blockId = block.hash ?? block.number;
  return typeof json.streamId === 'string' && blockId !== undefined
    ? `evm ${json.streamId} ${String(blockId)} ${String(json.confirmed)}`
    : undefined;
}

/**
 * The trigger's step in the execution: passes on the items of deliveries it sees for the first
 * time and drops the repeats, recorded in `store` (n8n's own unless a variant of the trigger gives
 * another). A manual (test) run records nothing: it must not hide a later production delivery.
 */
export async function dropRepeats(
  this: IExecuteFunctions,
  store: RepeatStore = N8N_REPEAT_STORE,
): Promise<INodeExecutionData[][]> {
  const items = this.getInputData();
  if (this.getMode() === 'manual') return [items];
  const mode = this.getNodeParameter('mode', 0, 'bitcoin') as TriggerMode;
  const keys = items.map((item) => repeatKey(mode, item.json));
  const keyed = keys.flatMap((key, index) => (key === undefined ? [] : [index]));
  let first: boolean[];
  try {
    first = await firstSightings(
      this,
      keyed.map((index) => keys[index]!),
      store,
    );
  } catch (error) {
    throw new NodeOperationError(
      this.getNode(),
      `Could not record the deliveries in the repeat store (${store.label}): ${(error as Error).message}`,
      { description: 'Nothing was passed on. Retry this execution once the store is reachable.' },
    );
  }
  const dropped = new Set(keyed.filter((_, position) => !first[position]));
  const kept = items.filter((_, index) => !dropped.has(index));
  if (dropped.size > 0) this.logger.info(droppedMessage(keys, dropped));
  return [kept];
}

const KEYS_LOGGED = 10;

/** "dropped 2 of 3 items, delivered before: bitcoin <txid> mempool, …" (the first keys only). */
function droppedMessage(keys: (string | undefined)[], dropped: Set<number>): string {
  const named = [...dropped].map((index) => keys[index]!);
  const more = named.length > KEYS_LOGGED ? ` and ${named.length - KEYS_LOGGED} more` : '';
  return `Blockwire Trigger: dropped ${dropped.size} of ${keys.length} items, delivered before: ${named
    .slice(0, KEYS_LOGGED)
    .join(', ')}${more}`;
}
