import { addBitcoinStreamAddressOperation } from './operations/addBitcoinStreamAddress.js';
import { addBitcoinStreamXpubOperation } from './operations/addBitcoinStreamXpub.js';
import { createBitcoinStreamOperation } from './operations/createBitcoinStream.js';
import { deleteBitcoinStreamOperation } from './operations/deleteBitcoinStream.js';
import { getBitcoinBlockWebhookDataOperation } from './operations/getBitcoinBlockWebhookData.js';
import { getBitcoinStreamOperation } from './operations/getBitcoinStream.js';
import { listBitcoinStreamAddressesOperation } from './operations/listBitcoinStreamAddresses.js';
import { listBitcoinStreamsOperation } from './operations/listBitcoinStreams.js';
import { listBitcoinStreamXpubsOperation } from './operations/listBitcoinStreamXpubs.js';
import { removeBitcoinStreamAddressOperation } from './operations/removeBitcoinStreamAddress.js';
import { removeBitcoinStreamXpubOperation } from './operations/removeBitcoinStreamXpub.js';
import { replayBitcoinBlockOperation } from './operations/replayBitcoinBlock.js';
import { setBitcoinStreamStatusOperation } from './operations/setBitcoinStreamStatus.js';
import { updateBitcoinStreamOperation } from './operations/updateBitcoinStream.js';
import { updateEvmStreamStatusOperation } from './operations/updateEvmStreamStatus.js';
import { updateSettingsOperation } from './operations/updateSettings.js';

export { actions } from './actions.js';
export {
  type BitcoinAddressType,
  bitcoinAddressSchema,
  bitcoinAddressType,
  type ExtendedPublicKeyKind,
  extendedPublicKeyKind,
  extendedPublicKeySchema,
  isBitcoinAddress,
  isExtendedPublicKey,
} from './bitcoin-address.js';
export {
  type AddBitcoinStreamAddressInput,
  addBitcoinStreamAddress,
  addBitcoinStreamAddressInput,
  addBitcoinStreamAddressOperation,
  singleBitcoinAddressSchema,
} from './operations/addBitcoinStreamAddress.js';
export {
  type AddBitcoinStreamAddressesInput,
  type AddBitcoinStreamAddressesOptions,
  type AddBitcoinStreamAddressResult,
  addBitcoinStreamAddresses,
  addBitcoinStreamAddressesInput,
  DEFAULT_ADDRESS_CONCURRENCY,
} from './operations/addBitcoinStreamAddresses.js';
export {
  type AddBitcoinStreamXpubInput,
  addBitcoinStreamXpub,
  addBitcoinStreamXpubInput,
  addBitcoinStreamXpubOperation,
} from './operations/addBitcoinStreamXpub.js';
export {
  type CreateBitcoinStreamInput,
  createBitcoinStream,
  createBitcoinStreamInput,
  createBitcoinStreamOperation,
} from './operations/createBitcoinStream.js';
export {
  type DeleteBitcoinStreamInput,
  deleteBitcoinStream,
  deleteBitcoinStreamInput,
  deleteBitcoinStreamOperation,
} from './operations/deleteBitcoinStream.js';
export {
  type GetBitcoinBlockWebhookDataInput,
  getBitcoinBlockWebhookData,
  getBitcoinBlockWebhookDataInput,
  getBitcoinBlockWebhookDataOperation,
} from './operations/getBitcoinBlockWebhookData.js';
export {
  type GetBitcoinStreamInput,
  getBitcoinStream,
  getBitcoinStreamInput,
  getBitcoinStreamOperation,
} from './operations/getBitcoinStream.js';
export {
  type ListBitcoinStreamAddressesInput,
  listBitcoinStreamAddresses,
  listBitcoinStreamAddressesInput,
  listBitcoinStreamAddressesOperation,
} from './operations/listBitcoinStreamAddresses.js';
export {
  type ListBitcoinStreamsInput,
  listBitcoinStreams,
  listBitcoinStreamsInput,
  listBitcoinStreamsOperation,
} from './operations/listBitcoinStreams.js';
export {
  type ListBitcoinStreamXpubsInput,
  listBitcoinStreamXpubs,
  listBitcoinStreamXpubsInput,
  listBitcoinStreamXpubsOperation,
} from './operations/listBitcoinStreamXpubs.js';
export {
  type RemoveBitcoinStreamAddressInput,
  removeBitcoinStreamAddress,
  removeBitcoinStreamAddressInput,
  removeBitcoinStreamAddressOperation,
} from './operations/removeBitcoinStreamAddress.js';
export {
  type RemoveBitcoinStreamXpubInput,
  removeBitcoinStreamXpub,
  removeBitcoinStreamXpubInput,
  removeBitcoinStreamXpubOperation,
} from './operations/removeBitcoinStreamXpub.js';
export {
  type ReplayBitcoinBlockInput,
  replayBitcoinBlock,
  replayBitcoinBlockInput,
  replayBitcoinBlockOperation,
} from './operations/replayBitcoinBlock.js';
export {
  type SetBitcoinStreamStatusInput,
  setBitcoinStreamStatus,
  setBitcoinStreamStatusInput,
  setBitcoinStreamStatusOperation,
} from './operations/setBitcoinStreamStatus.js';
export {
  type UpdateBitcoinStreamInput,
  updateBitcoinStream,
  updateBitcoinStreamInput,
  updateBitcoinStreamOperation,
} from './operations/updateBitcoinStream.js';
export {
  type UpdateEvmStreamStatusInput,
  updateEvmStreamStatus,
  updateEvmStreamStatusInput,
  updateEvmStreamStatusOperation,
} from './operations/updateEvmStreamStatus.js';
export {
  type UpdateSettingsInput,
  updateSettings,
  updateSettingsInput,
  updateSettingsOperation,
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
} from './schemas.js';

/** Every management call of the streams interface, in the spec's order. */
export const operations = [
  updateEvmStreamStatusOperation,
  updateSettingsOperation,
  createBitcoinStreamOperation,
  updateBitcoinStreamOperation,
  setBitcoinStreamStatusOperation,
  listBitcoinStreamsOperation,
  getBitcoinStreamOperation,
  deleteBitcoinStreamOperation,
  getBitcoinBlockWebhookDataOperation,
  replayBitcoinBlockOperation,
  listBitcoinStreamAddressesOperation,
  addBitcoinStreamAddressOperation,
  removeBitcoinStreamAddressOperation,
  listBitcoinStreamXpubsOperation,
  addBitcoinStreamXpubOperation,
  removeBitcoinStreamXpubOperation,
] as const;
