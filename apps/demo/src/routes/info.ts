/** What the page needs to draw itself: the mode, the chains, the examples, the board's status. */
import { EVM_CHAINS } from '@blockwire/core';
import { NODE_CHAINS } from '@blockwire/emulator';
import * as z from 'zod/v4';
import { EVM_TOKEN_EXAMPLES, SOLANA_TOKEN_EXAMPLES } from '../examples.js';
import type { InfoView } from '../views.js';
import { boardStatus } from './bitcoin.js';
import { defineRoute, type RouteContext } from './route.js';

/** The emulator answers every chain of the node interface from its one anvil node. */
export const EMULATOR_NODE_CHAINS_NOTE =
  'On the emulator every chain here is the same local anvil chain: eth, sepolia and the others show the same blocks.';

export function infoRoutes(context: RouteContext, describe: () => InfoView['backend']) {
  return [
    defineRoute({
      method: 'GET',
      path: '/api/info',
      input: z.strictObject({}),
      handle: async (): Promise<InfoView> => ({
        mode: context.backend.mode,
        backend: describe(),
        chains: EVM_CHAINS.map(({ name, hexId }) => ({ name, hexId })),
        nodeChains: [...NODE_CHAINS],
        ...(context.backend.mode === 'emulator' ? { nodeChainsNote: EMULATOR_NODE_CHAINS_NOTE } : {}),
        examples: { evm: [...EVM_TOKEN_EXAMPLES], solana: [...SOLANA_TOKEN_EXAMPLES] },
        evmSimulator: context.backend.devWallet !== undefined,
        bitcoin: boardStatus(context),
      }),
    }),
  ];
}
