/** The live Bitcoin board: its rows, the addresses it watches, and the simulator's buttons. */
import * as z from 'zod/v4';
import { type BitcoinBoard, BOARD_SIZE } from '../bitcoin-board.js';
import { sendInput, watchInput } from '../inputs.js';
import { DemoError } from '../problems.js';
import type { BitcoinStatusView, BoardEvents, WatchView } from '../views.js';
import { defineRoute, type RouteContext } from './route.js';

/** The board's status, also when it is off (then with the reason). */
export function boardStatus(context: RouteContext): BitcoinStatusView {
  if (context.board) return context.board.status();
  return {
    enabled: false,
    simulator: context.backend.bitcoin !== undefined,
    allAddresses: false,
    watched: [],
    reason: context.boardOff ?? context.backend.webhookUnavailable ?? 'The live board is not connected.',
  };
}

export function bitcoinRoutes(context: RouteContext) {
  const requireBoard = (): BitcoinBoard => {
    if (!context.board) throw new DemoError(409, boardStatus(context).reason ?? 'The live board is off.');
    return context.board;
  };
  const requireSimulator = () => {
    const simulator = context.backend.bitcoin;
    if (!simulator) {
      throw new DemoError(
        409,
        'Sending and mining are simulator buttons: they work on the local emulator only.',
      );
    }
    return simulator;
  };
  return [
    defineRoute({
      method: 'GET',
      path: '/api/bitcoin/board',
      input: z.strictObject({}),
      handle: async (): Promise<BoardEvents['board']> => ({
        rows: context.board?.rows() ?? [],
        status: boardStatus(context),
        size: BOARD_SIZE,
      }),
    }),
    defineRoute({
      method: 'POST',
      path: '/api/bitcoin/watch',
      input: watchInput,
      handle: async ({ address }): Promise<WatchView> => {
        const added = await requireBoard().watch(address);
        return { ...boardStatus(context), added };
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/api/bitcoin/all-addresses',
      input: z.strictObject({ enabled: z.boolean({ error: 'must be true or false' }) }),
      handle: async ({ enabled }): Promise<BitcoinStatusView> => {
        await requireBoard().setAllAddresses(enabled);
        return boardStatus(context);
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/api/bitcoin/send',
      input: sendInput,
      handle: async ({ to, amountBtc }): Promise<{ txid: string }> =>
        requireSimulator().send({ to, amountBtc }),
    }),
    defineRoute({
      method: 'POST',
      path: '/api/bitcoin/mine',
      input: z.strictObject({
        blocks: z
          .number({ error: 'must be a number' })
          .int({ error: 'must be a whole number' })
          .min(1, { error: 'must be at least 1' })
          .max(10, { error: 'must be at most 10' })
          .default(1),
      }),
      handle: async ({ blocks }): Promise<{ height: number }> => {
        const mined = await requireSimulator().mine({ blocks });
        context.board?.setTip(mined.height);
        return mined;
      },
    }),
  ];
}
