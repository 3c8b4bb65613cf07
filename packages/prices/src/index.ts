/**
 * Token prices: what a user calls. The operation objects, their zod schemas and `actions` (for
 * hosts that build on the definitions: the n8n node, the emulator, an agent tool) are in
 * `@blockwire/prices/operations`, so changing them is not a change of this entry.
 */
export * from './operations/index.js';
export { type EvmTokenPrice, SOLANA_NETWORKS, type SolanaNetwork, type SolanaTokenPrice } from './schemas.js';
