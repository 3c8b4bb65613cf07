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
export {
  addBitcoinStreamAddressInput,
  addBitcoinStreamAddressOperation,
  singleBitcoinAddressSchema,
} from './management/operations/addBitcoinStreamAddress.js';
export { addBitcoinStreamAddressesInput } from './management/operations/addBitcoinStreamAddresses.js';
export {
  addBitcoinStreamXpubInput,
  addBitcoinStreamXpubOperation,
} from './management/operations/addBitcoinStreamXpub.js';
export {
  createBitcoinStreamInput,
  createBitcoinStreamOperation,
} from './management/operations/createBitcoinStream.js';
export {
  deleteBitcoinStreamInput,
  deleteBitcoinStreamOperation,
} from './management/operations/deleteBitcoinStream.js';
export {
  getBitcoinBlockWebhookDataInput,
  getBitcoinBlockWebhookDataOperation,
} from './management/operations/getBitcoinBlockWebhookData.js';
export {
  getBitcoinStreamInput,
  getBitcoinStreamOperation,
} from './management/operations/getBitcoinStream.js';
export {
  listBitcoinStreamAddressesInput,
  listBitcoinStreamAddressesOperation,
} from './management/operations/listBitcoinStreamAddresses.js';
export {
  listBitcoinStreamsInput,
  listBitcoinStreamsOperation,
} from './management/operations/listBitcoinStreams.js';
export {
  listBitcoinStreamXpubsInput,
  listBitcoinStreamXpubsOperation,
} from './management/operations/listBitcoinStreamXpubs.js';
export {
  removeBitcoinStreamAddressInput,
  removeBitcoinStreamAddressOperation,
} from './management/operations/removeBitcoinStreamAddress.js';
export {
  removeBitcoinStreamXpubInput,
  removeBitcoinStreamXpubOperation,
} from './management/operations/removeBitcoinStreamXpub.js';
export {
  replayBitcoinBlockInput,
  replayBitcoinBlockOperation,
} from './management/operations/replayBitcoinBlock.js';
export {
  setBitcoinStreamStatusInput,
  setBitcoinStreamStatusOperation,
} from './management/operations/setBitcoinStreamStatus.js';
export {
  updateBitcoinStreamInput,
  updateBitcoinStreamOperation,
} from './management/operations/updateBitcoinStream.js';
export {
  updateEvmStreamStatusInput,
  updateEvmStreamStatusOperation,
} from './management/operations/updateEvmStreamStatus.js';
export {
  updateSettingsInput,
  updateSettingsOperation,
} from './management/operations/updateSettings.js';
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
  signBody,
  type VerifySignatureInput,
  verifyRawSignature,
  verifySignature,
} from './webhooks/signature.js';
