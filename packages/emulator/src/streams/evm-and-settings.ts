import type { updateEvmStreamStatusOperation, updateSettingsOperation } from '@blockwire/streams/operations';
import { type HandlerInput as In, notFound } from '../handlers/define.js';
import type { StreamsState } from './state.js';
import { now, STATUS_MESSAGES } from './status.js';

/**
 * The contract's EVM stream fields the seeded streams leave unset, answered as the service
 * answers an unset one (a stream's reply carries every field of the contract).
 */
const EVM_STREAM_UNSET = { getNativeBalances: [], abi: null, advancedOptions: null, triggers: null };

/** Sets an EVM stream's status and the message that goes with it. */
export function updateEvmStreamStatus(state: StreamsState, input: In<typeof updateEvmStreamStatusOperation>) {
  const id = input.id.toLowerCase();
  const stream = state.evmStreams.find((candidate) => candidate.id === id);
  if (!stream) throw notFound(`id: no EVM stream ${input.id}`);
  const { status } = input;
  stream.status = status;
  stream.statusMessage = STATUS_MESSAGES[status];
  stream.updatedAt = now();
  return { ...EVM_STREAM_UNSET, ...stream };
}

export function updateSettings(state: StreamsState, input: In<typeof updateSettingsOperation>) {
  if (input.region !== undefined) state.settings.region = input.region;
  if (input.secretKey !== undefined) state.settings.secretKey = input.secretKey;
  return { ...state.settings };
}
