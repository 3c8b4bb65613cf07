export { DEFAULT_RETAINED_BLOCKS } from './bitcoin/simulator.js';
export { CONTROL_ROUTES, type RequestLogEntry } from './control.js';
export {
  DEFAULT_RETRY_DELAYS_MS,
  type DeliveryOptions,
  type DeliveryRecord,
  type DeliveryTotals,
} from './delivery/engine.js';
export {
  type CurrentFaults,
  type DeliveryFault,
  type DeliveryFaultConfig,
  type DeliveryFaultConfigInput,
  FAULT_INTERFACES,
  type FaultConfig,
  type FaultConfigInput,
  type FaultInterface,
  type FaultOptions,
} from './faults.js';
export { CATEGORY_FIXTURES } from './fixtures/entities.js';
export { EVM_CHAIN_FIXTURES } from './fixtures/evm-tokens.js';
export { PING_TOPIC, resolveAnvilBinary, type SeededChain } from './node/anvil.js';
export { BATCH_TOO_LARGE_CODE, MAX_BATCH_SIZE, NODE_CHAINS } from './node/proxy.js';
export { buildOpenApiDocument } from './openapi.js';
export { buildOpenRpcDocument } from './openrpc.js';
export {
  DEFAULT_API_KEY,
  type Emulator,
  type EmulatorOptions,
  type EmulatorUrls,
  MAX_BODY_BYTES,
  startEmulator,
} from './server.js';
export { DEFAULT_SECRET_KEY, SEEDED_EVM_STREAM_IDS, type StreamsState } from './streams/state.js';
