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
export * from './operations/index.js';
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
