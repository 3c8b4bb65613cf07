/**
 * The streams interface without a runtime: the stream management operations and the webhook
 * payloads, signatures and amounts. No timer, `process`, `globalThis` or console (see
 * `@blockwire/core/operations`), so an n8n node can bundle it. The main entry adds the webhook
 * handler and the delivery stores and tracker.
 */
export { actions, operations } from './management/actions.js';
export {
  type BitcoinAddressType,
  bitcoinAddressSchema,
  bitcoinAddressType,
  type ExtendedPublicKeyKind,
  extendedPublicKeyKind,
  extendedPublicKeySchema,
  isBitcoinAddress,
  isExtendedPublicKey,
} from './management/bitcoin-address.js';
export {
  type AddBitcoinStreamAddressInput,
  addBitcoinStreamAddress,
  addBitcoinStreamAddressInput,
  addBitcoinStreamAddressOperation,
  singleBitcoinAddressSchema,
} from './management/operations/addBitcoinStreamAddress.js';
export {
  type AddBitcoinStreamAddressesInput,
  type AddBitcoinStreamAddressesOptions,
  type AddBitcoinStreamAddressResult,
  addBitcoinStreamAddresses,
  addBitcoinStreamAddressesInput,
  DEFAULT_ADDRESS_CONCURRENCY,
} from './management/operations/addBitcoinStreamAddresses.js';
export {
  type AddBitcoinStreamXpubInput,
  addBitcoinStreamXpub,
  addBitcoinStreamXpubInput,
  addBitcoinStreamXpubOperation,
} from './management/operations/addBitcoinStreamXpub.js';
export {
  type CreateBitcoinStreamInput,
  createBitcoinStream,
  createBitcoinStreamInput,
  createBitcoinStreamOperation,
} from './management/operations/createBitcoinStream.js';
export {
  type DeleteBitcoinStreamInput,
  deleteBitcoinStream,
  deleteBitcoinStreamInput,
  deleteBitcoinStreamOperation,
} from './management/operations/deleteBitcoinStream.js';
export {
  type GetBitcoinBlockWebhookDataInput,
  getBitcoinBlockWebhookData,
  getBitcoinBlockWebhookDataInput,
  getBitcoinBlockWebhookDataOperation,
} from './management/operations/getBitcoinBlockWebhookData.js';
export {
  type GetBitcoinStreamInput,
  getBitcoinStream,
  getBitcoinStreamInput,
  getBitcoinStreamOperation,
} from './management/operations/getBitcoinStream.js';
export {
  type IterateBitcoinStreamAddressesInput,
  iterateBitcoinStreamAddresses,
  type ListBitcoinStreamAddressesInput,
  listBitcoinStreamAddresses,
  listBitcoinStreamAddressesInput,
  listBitcoinStreamAddressesOperation,
} from './management/operations/listBitcoinStreamAddresses.js';
export {
  type IterateBitcoinStreamsInput,
  iterateBitcoinStreams,
  type ListBitcoinStreamsInput,
  listBitcoinStreams,
  listBitcoinStreamsInput,
  listBitcoinStreamsOperation,
} from './management/operations/listBitcoinStreams.js';
export {
  type IterateBitcoinStreamXpubsInput,
  iterateBitcoinStreamXpubs,
  type ListBitcoinStreamXpubsInput,
  listBitcoinStreamXpubs,
  listBitcoinStreamXpubsInput,
  listBitcoinStreamXpubsOperation,
} from './management/operations/listBitcoinStreamXpubs.js';
export {
  type RemoveBitcoinStreamAddressInput,
  removeBitcoinStreamAddress,
  removeBitcoinStreamAddressInput,
  removeBitcoinStreamAddressOperation,
} from './management/operations/removeBitcoinStreamAddress.js';
export {
  type RemoveBitcoinStreamXpubInput,
  removeBitcoinStreamXpub,
  removeBitcoinStreamXpubInput,
  removeBitcoinStreamXpubOperation,
} from './management/operations/removeBitcoinStreamXpub.js';
export {
  type ReplayBitcoinBlockInput,
  replayBitcoinBlock,
  replayBitcoinBlockInput,
  replayBitcoinBlockOperation,
} from './management/operations/replayBitcoinBlock.js';
export {
  type SetBitcoinStreamStatusInput,
  setBitcoinStreamStatus,
  setBitcoinStreamStatusInput,
  setBitcoinStreamStatusOperation,
} from './management/operations/setBitcoinStreamStatus.js';
export {
  type UpdateBitcoinStreamInput,
  updateBitcoinStream,
  updateBitcoinStreamInput,
  updateBitcoinStreamOperation,
} from './management/operations/updateBitcoinStream.js';
export {
  type UpdateEvmStreamStatusInput,
  updateEvmStreamStatus,
  updateEvmStreamStatusInput,
  updateEvmStreamStatusOperation,
} from './management/operations/updateEvmStreamStatus.js';
export {
  type UpdateSettingsInput,
  updateSettings,
  updateSettingsInput,
  updateSettingsOperation,
} from './management/operations/updateSettings.js';
export {
  type BitcoinBlockReplay,
  type BitcoinBlockWebhookData,
  type BitcoinStream,
  type BitcoinStreamAddress,
  type BitcoinStreamAddressChange,
  type BitcoinStreamAddressPage,
  type BitcoinStreamChange,
  type BitcoinStreamList,
  type BitcoinStreamXpub,
  type BitcoinStreamXpubChange,
  type BitcoinStreamXpubPage,
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
  type EvmStream,
  evmStreamIdSchema,
  evmStreamSchema,
  type ProjectSettings,
  pageLimitSchema,
  projectSettingsSchema,
  SETTINGS_REGIONS,
  type SettingsRegion,
  STREAM_STATUSES,
  type StreamStatus,
  settingsRegionSchema,
  streamStatusSchema,
  webhookUrlSchema,
} from './management/schemas.js';
export { type WebhookUrlRules, webhookUrlProblem } from './management/webhook-url.js';

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
