import { defineAction } from '@blockwire/core/operations';
import { addBitcoinStreamAddressOperation } from './operations/addBitcoinStreamAddress.js';
import {
  addBitcoinStreamAddresses,
  addBitcoinStreamAddressesInput,
} from './operations/addBitcoinStreamAddresses.js';
import {
  addBitcoinStreamXpub,
  addBitcoinStreamXpubInput,
  addBitcoinStreamXpubOperation,
} from './operations/addBitcoinStreamXpub.js';
import {
  createBitcoinStream,
  createBitcoinStreamInput,
  createBitcoinStreamOperation,
} from './operations/createBitcoinStream.js';
import {
  deleteBitcoinStream,
  deleteBitcoinStreamInput,
  deleteBitcoinStreamOperation,
} from './operations/deleteBitcoinStream.js';
import {
  getBitcoinBlockWebhookData,
  getBitcoinBlockWebhookDataInput,
  getBitcoinBlockWebhookDataOperation,
} from './operations/getBitcoinBlockWebhookData.js';
import {
  getBitcoinStream,
  getBitcoinStreamInput,
  getBitcoinStreamOperation,
} from './operations/getBitcoinStream.js';
import {
  listBitcoinStreamAddresses,
  listBitcoinStreamAddressesInput,
  listBitcoinStreamAddressesOperation,
} from './operations/listBitcoinStreamAddresses.js';
import {
  listBitcoinStreams,
  listBitcoinStreamsInput,
  listBitcoinStreamsOperation,
} from './operations/listBitcoinStreams.js';
import {
  listBitcoinStreamXpubs,
  listBitcoinStreamXpubsInput,
  listBitcoinStreamXpubsOperation,
} from './operations/listBitcoinStreamXpubs.js';
import {
  removeBitcoinStreamAddress,
  removeBitcoinStreamAddressInput,
  removeBitcoinStreamAddressOperation,
} from './operations/removeBitcoinStreamAddress.js';
import {
  removeBitcoinStreamXpub,
  removeBitcoinStreamXpubInput,
  removeBitcoinStreamXpubOperation,
} from './operations/removeBitcoinStreamXpub.js';
import {
  replayBitcoinBlock,
  replayBitcoinBlockInput,
  replayBitcoinBlockOperation,
} from './operations/replayBitcoinBlock.js';
import {
  setBitcoinStreamStatus,
  setBitcoinStreamStatusInput,
  setBitcoinStreamStatusOperation,
} from './operations/setBitcoinStreamStatus.js';
import {
  updateBitcoinStream,
  updateBitcoinStreamInput,
  updateBitcoinStreamOperation,
} from './operations/updateBitcoinStream.js';
import {
  updateEvmStreamStatus,
  updateEvmStreamStatusInput,
  updateEvmStreamStatusOperation,
} from './operations/updateEvmStreamStatus.js';
import { updateSettings, updateSettingsInput, updateSettingsOperation } from './operations/updateSettings.js';

/**
 * The management functions of this package as data, in the spec's order: a consumer routes
 * `operation.resource` / `operation.action` to `call` with no switch of its own. Adding addresses
 * takes a list: `call` sends one request per address (the service's limit) and reports each.
 */
export const actions = [
  defineAction({
    operation: updateEvmStreamStatusOperation,
    input: updateEvmStreamStatusInput,
    call: updateEvmStreamStatus,
  }),
  defineAction({ operation: updateSettingsOperation, input: updateSettingsInput, call: updateSettings }),
  defineAction({
    operation: createBitcoinStreamOperation,
    input: createBitcoinStreamInput,
    call: createBitcoinStream,
  }),
  defineAction({
    operation: updateBitcoinStreamOperation,
    input: updateBitcoinStreamInput,
    call: updateBitcoinStream,
  }),
  defineAction({
    operation: setBitcoinStreamStatusOperation,
    input: setBitcoinStreamStatusInput,
    call: setBitcoinStreamStatus,
  }),
  defineAction({
    operation: listBitcoinStreamsOperation,
    input: listBitcoinStreamsInput,
    call: listBitcoinStreams,
  }),
  defineAction({
    operation: getBitcoinStreamOperation,
    input: getBitcoinStreamInput,
    call: getBitcoinStream,
  }),
  defineAction({
    operation: deleteBitcoinStreamOperation,
    input: deleteBitcoinStreamInput,
    call: deleteBitcoinStream,
  }),
  defineAction({
    operation: getBitcoinBlockWebhookDataOperation,
    input: getBitcoinBlockWebhookDataInput,
    call: getBitcoinBlockWebhookData,
  }),
  defineAction({
    operation: replayBitcoinBlockOperation,
    input: replayBitcoinBlockInput,
    call: replayBitcoinBlock,
  }),
  defineAction({
    operation: listBitcoinStreamAddressesOperation,
    input: listBitcoinStreamAddressesInput,
    call: listBitcoinStreamAddresses,
  }),
  defineAction({
    operation: addBitcoinStreamAddressOperation,
    input: addBitcoinStreamAddressesInput,
    call: addBitcoinStreamAddresses,
  }),
  defineAction({
    operation: removeBitcoinStreamAddressOperation,
    input: removeBitcoinStreamAddressInput,
    call: removeBitcoinStreamAddress,
  }),
  defineAction({
    operation: listBitcoinStreamXpubsOperation,
    input: listBitcoinStreamXpubsInput,
    call: listBitcoinStreamXpubs,
  }),
  defineAction({
    operation: addBitcoinStreamXpubOperation,
    input: addBitcoinStreamXpubInput,
    call: addBitcoinStreamXpub,
  }),
  defineAction({
    operation: removeBitcoinStreamXpubOperation,
    input: removeBitcoinStreamXpubInput,
    call: removeBitcoinStreamXpub,
  }),
] as const;

/** Every management call of the streams interface, in the spec's order. */
export const operations = actions.map((action) => action.operation);
