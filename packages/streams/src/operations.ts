/**
 * The streams interface without a runtime: the stream management operations and the webhook
 * payloads, signatures and amounts. No timer, `process`, `globalThis` or console (see
 * `@blockwire/core/operations`), so an n8n node can bundle it. The main entry adds the webhook
 * handler and the delivery stores and tracker.
 */

export {
  actions,
  operations,
} from './management/actions.js';
export {
  bitcoinAddressSchema,
  extendedPublicKeySchema,
} from './management/bitcoin-address.js';
export * from './management/index.js';
export * from './management/operations/definitions.js';
export {
  bitcoinBlockReplaySchema,
  bitcoinBlockWebhookDataSchema,
  bitcoinChainIdSchema,
  bitcoinNetworkSchema,
  bitcoinStreamAddressChangeSchema,
  bitcoinStreamAddressPageSchema,
  bitcoinStreamAddressSchema,
  bitcoinStreamChangeSchema,
  bitcoinStreamConfigShape,
  bitcoinStreamIdSchema,
  bitcoinStreamListSchema,
  bitcoinStreamSchema,
  bitcoinStreamXpubChangeSchema,
  bitcoinStreamXpubPageSchema,
  bitcoinStreamXpubSchema,
  blockNumberSchema,
  cursorSchema,
  evmStreamIdSchema,
  evmStreamSchema,
  pageLimitSchema,
  projectSettingsSchema,
  settingsRegionSchema,
  streamStatusSchema,
  webhookUrlSchema,
} from './management/schemas.js';
export {
  btcToSats,
  satsToBtc,
} from './webhooks/amounts.js';
export { SignatureError } from './webhooks/errors.js';
export {
  BITCOIN_DELIVERY_STAGES,
  type BitcoinBlock,
  type BitcoinDeliveryStage,
  type BitcoinInput,
  type BitcoinOutput,
  type BitcoinScriptPubKey,
  type BitcoinTransaction,
  type BitcoinWebhook,
  bitcoinBlockSchema,
  bitcoinDeliveryStage,
  bitcoinInputSchema,
  bitcoinOutputSchema,
  bitcoinScriptPubKeySchema,
  bitcoinTransactionSchema,
  bitcoinWebhookSchema,
  type EvmWebhook,
  evmWebhookSchema,
  isBitcoinWebhook,
  isCoinbaseTransaction,
  isVerificationRequest,
  parseBitcoinWebhook,
  parseEvmWebhook,
} from './webhooks/payloads.js';
export {
  assertValidSignature,
  KeccakFailure,
  signBody,
  type VerifySignatureInput,
  verifyRawSignature,
  verifySignature,
} from './webhooks/signature.js';
export * from './webhooks/webhook-events.js';
