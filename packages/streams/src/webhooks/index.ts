export { btcToSats, satsToBtc } from './amounts.js';
export { SignatureError } from './errors.js';
export {
  type BitcoinDeliveryContext,
  createWebhookHandler,
  type FetchHandler,
  type FetchHandlerOptions,
  type NodeListener,
  type NodeListenerOptions,
  toFetchHandler,
  toNodeListener,
  type WebhookErrorContext,
  type WebhookHandler,
  type WebhookHandlerOptions,
  type WebhookRequest,
  type WebhookResponse,
} from './handler.js';
export {
  BITCOIN_DELIVERY_STAGES,
  type BitcoinBlock,
  type BitcoinDeliveryStage,
  type BitcoinInput,
  type BitcoinOutput,
  type BitcoinScriptPubKey,
  type BitcoinTransaction,
  type BitcoinWebhook,
  bitcoinDeliveryStage,
  type EvmWebhook,
  isBitcoinWebhook,
  isCoinbaseTransaction,
  isVerificationRequest,
  parseBitcoinWebhook,
  parseEvmWebhook,
} from './payloads.js';
export {
  assertValidSignature,
  KeccakFailure,
  signBody,
  type VerifySignatureInput,
  verifyRawSignature,
  verifySignature,
} from './signature.js';
export { createSqliteTxStore, type SqliteTxStore } from './sqlite-store.js';
export {
  type Awaitable,
  createMemoryTxStore,
  type RecordedChange,
  type StoredDelivery,
  type TxRecord,
  type TxStore,
} from './store.js';
export {
  type AcceptedDelivery,
  type BitcoinTxTracker,
  type BitcoinTxTrackerOptions,
  createBitcoinTxTracker,
  type TxChange,
} from './tracker.js';
export * from './webhook-events.js';
