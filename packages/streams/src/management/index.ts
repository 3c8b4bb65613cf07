/**
 * Stream management: what a user calls, with its types. The operation objects and zod schemas
 * behind it are exported by `@blockwire/streams/operations` only.
 */
export {
  type BitcoinAddressType,
  bitcoinAddressType,
  type ExtendedPublicKeyKind,
  extendedPublicKeyKind,
  isBitcoinAddress,
  isExtendedPublicKey,
} from './bitcoin-address.js';
export {
  type AddBitcoinStreamAddressInput,
  addBitcoinStreamAddress,
} from './operations/addBitcoinStreamAddress.js';
export {
  type AddBitcoinStreamAddressesInput,
  type AddBitcoinStreamAddressesOptions,
  type AddBitcoinStreamAddressResult,
  addBitcoinStreamAddresses,
  DEFAULT_ADDRESS_CONCURRENCY,
} from './operations/addBitcoinStreamAddresses.js';
export {
  type AddBitcoinStreamXpubInput,
  addBitcoinStreamXpub,
} from './operations/addBitcoinStreamXpub.js';
export {
  type CreateBitcoinStreamInput,
  createBitcoinStream,
} from './operations/createBitcoinStream.js';
export {
  type DeleteBitcoinStreamInput,
  deleteBitcoinStream,
} from './operations/deleteBitcoinStream.js';
export {
  type GetBitcoinBlockWebhookDataInput,
  getBitcoinBlockWebhookData,
} from './operations/getBitcoinBlockWebhookData.js';
export {
  type GetBitcoinStreamInput,
  getBitcoinStream,
} from './operations/getBitcoinStream.js';
export {
  type IterateBitcoinStreamAddressesInput,
  iterateBitcoinStreamAddresses,
  type ListBitcoinStreamAddressesInput,
  listBitcoinStreamAddresses,
} from './operations/listBitcoinStreamAddresses.js';
export {
  type IterateBitcoinStreamsInput,
  iterateBitcoinStreams,
  type ListBitcoinStreamsInput,
  listBitcoinStreams,
} from './operations/listBitcoinStreams.js';
export {
  type IterateBitcoinStreamXpubsInput,
  iterateBitcoinStreamXpubs,
  type ListBitcoinStreamXpubsInput,
  listBitcoinStreamXpubs,
} from './operations/listBitcoinStreamXpubs.js';
export {
  type RemoveBitcoinStreamAddressInput,
  removeBitcoinStreamAddress,
} from './operations/removeBitcoinStreamAddress.js';
export {
  type RemoveBitcoinStreamXpubInput,
  removeBitcoinStreamXpub,
} from './operations/removeBitcoinStreamXpub.js';
export {
  type ReplayBitcoinBlockInput,
  replayBitcoinBlock,
} from './operations/replayBitcoinBlock.js';
export {
  type SetBitcoinStreamStatusInput,
  setBitcoinStreamStatus,
} from './operations/setBitcoinStreamStatus.js';
export {
  type UpdateBitcoinStreamInput,
  updateBitcoinStream,
} from './operations/updateBitcoinStream.js';
export {
  type UpdateEvmStreamStatusInput,
  updateEvmStreamStatus,
} from './operations/updateEvmStreamStatus.js';
export {
  type UpdateSettingsInput,
  updateSettings,
} from './operations/updateSettings.js';
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
  type EvmStream,
  type ProjectSettings,
  SETTINGS_REGIONS,
  type SettingsRegion,
  STREAM_STATUSES,
  type StreamStatus,
} from './schemas.js';
export {
  type WebhookUrlRules,
  webhookUrlProblem,
} from './webhook-url.js';
