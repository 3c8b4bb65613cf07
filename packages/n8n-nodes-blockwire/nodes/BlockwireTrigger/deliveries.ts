import { ValidationError } from '@blockwire/core';
import {
  type BitcoinDeliveryStage,
  bitcoinDeliveryStage,
  isVerificationRequest,
  parseBitcoinWebhook,
  parseEvmWebhook,
  verifySignature,
} from '@blockwire/streams';
import type { IDataObject, INodeExecutionData, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';
import { type BlockwireCredentials, CREDENTIAL_TYPE } from '../shared/credentials';
import { toNodeError } from '../shared/errors';
import { bitcoinTransactionItem } from './bitcoin-items';
import { memoryKey, memoryScope, rememberNew, type TriggerStaticData } from './memory';
import type { TriggerMode } from './properties';

/** Answered with n8n's default 200 and no workflow run. */
const NOTHING_TO_RUN: IWebhookResponseData = {};

/**
 * Handles one POST from the service. The verification POST (empty, unsigned) gets 200 and starts
 * nothing; a missing or wrong `x-signature` gets 401 and starts nothing; a signed delivery that
 * does not parse is logged and answered 200 (a retry would not fix it); a delivery seen before is
 * answered 200 and dropped. Everything else starts the workflow: Bitcoin mode with one item per
 * new transaction of a selected stage, EVM mode with the payload.
 */
export async function receiveDelivery(this: IWebhookFunctions): Promise<IWebhookResponseData> {
  const request = this.getRequestObject() as { rawBody?: Buffer };
  const body: unknown = request.rawBody && request.rawBody.length > 0 ? request.rawBody : this.getBodyData();
  if (isVerificationRequest(body)) return NOTHING_TO_RUN;

  const credentials = await this.getCredentials<BlockwireCredentials>(CREDENTIAL_TYPE);
  const secret = typeof credentials.webhookSecret === 'string' ? credentials.webhookSecret : '';
  const signature = this.getHeaderData()['x-signature'];
  const signed =
    secret !== '' &&
    (await verifySignature({ body, signature: Array.isArray(signature) ? signature[0] : signature, secret }));
  if (!signed) {
    this.getResponseObject()
      .status(401)
      .json({ message: 'The x-signature header is missing or does not match the webhook secret' });
    return { noWebhookResponse: true };
  }

  const mode = this.getNodeParameter('mode', 'bitcoin') as TriggerMode;
  const memory: Memory = {
    staticData: this.getWorkflowStaticData('node') as TriggerStaticData,
    scope: memoryScope(this.getWorkflow().id, this.getNode().id),
  };
  let items: INodeExecutionData[];
  try {
    items = mode === 'bitcoin' ? bitcoinItems(this, body, memory) : evmItems(body, memory);
  } catch (error) {
    if (!(error instanceof ValidationError)) throw toNodeError(this.getNode(), error);
    this.logger.warn(
      `Blockwire Trigger: a signed delivery was not a valid ${mode} payload, ignored: ${error.message}`,
    );
    return NOTHING_TO_RUN;
  }
  return items.length > 0 ? { workflowData: [items] } : NOTHING_TO_RUN;
}

interface Memory {
  staticData: TriggerStaticData;
  scope: string;
}

function bitcoinItems(context: IWebhookFunctions, body: unknown, memory: Memory): INodeExecutionData[] {
  const payload = parseBitcoinWebhook(body);
  const stage = bitcoinDeliveryStage(payload);
  const stages = context.getNodeParameter('stages', []) as BitcoinDeliveryStage[];
  if (!stages.includes(stage)) return [];
  const fresh = rememberNew(
    memory.staticData,
    payload.transactions.map((tx) => memoryKey('bitcoin', tx.txid, stage)),
    { scope: memory.scope },
  );
  return payload.transactions
    .filter((_, index) => fresh[index])
    .map((tx) => ({ json: bitcoinTransactionItem(payload, stage, tx) }));
}

function evmItems(body: unknown, memory: Memory): INodeExecutionData[] {
  const payload = parseEvmWebhook(body);
  const block = payload.block?.hash ?? payload.block?.number ?? '';
  const [fresh] = rememberNew(
    memory.staticData,
    [memoryKey('evm', payload.streamId, block, payload.confirmed)],
    {
      scope: memory.scope,
    },
  );
  return fresh ? [{ json: payload as IDataObject }] : [];
}
