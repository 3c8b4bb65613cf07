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
export * from './bitcoin-address.js';
export * from './operations/addBitcoinStreamAddress.js';
export * from './operations/addBitcoinStreamAddresses.js';
export * from './operations/addBitcoinStreamXpub.js';
export * from './operations/createBitcoinStream.js';
export * from './operations/deleteBitcoinStream.js';
export * from './operations/getBitcoinBlockWebhookData.js';
export * from './operations/getBitcoinStream.js';
export * from './operations/listBitcoinStreamAddresses.js';
export * from './operations/listBitcoinStreams.js';
export * from './operations/listBitcoinStreamXpubs.js';
export * from './operations/removeBitcoinStreamAddress.js';
export * from './operations/removeBitcoinStreamXpub.js';
export * from './operations/replayBitcoinBlock.js';
export * from './operations/setBitcoinStreamStatus.js';
export * from './operations/updateBitcoinStream.js';
export * from './operations/updateEvmStreamStatus.js';
export * from './operations/updateSettings.js';
export * from './schemas.js';

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
