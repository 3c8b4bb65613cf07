/** The latest EVM block (or any one) with its transactions and receipts, through @blockwire/rpc. */
import { NODE_CHAINS } from '@blockwire/emulator';
import { type Block, createRpcClient, type Receipt, type RpcClient, type Transaction } from '@blockwire/rpc';
import * as z from 'zod/v4';
import { createTestTransferSender, type SentTransfer } from '../dev-wallet.js';
import { DemoError } from '../problems.js';
import type { BlockTxView, BlockView } from '../views.js';
import { defineRoute, optionalDigits, type RouteContext } from './route.js';

const nodeChain = z.enum(NODE_CHAINS as [string, ...string[]], {
  error: 'is not a chain of the node interface',
});

/** A wei amount as ether, exact, without trailing zeros. */
export function formatEther(wei: bigint): string {
  const whole = wei / 10n ** 18n;
  const fraction = (wei % 10n ** 18n).toString().padStart(18, '0').replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : `${whole}`;
}

function formatGwei(wei: bigint): string {
  const gwei = Number(wei) / 1e9;
  return gwei >= 100 ? gwei.toFixed(0) : gwei.toPrecision(3);
}

function toTxView(tx: Transaction, receipt: Receipt | undefined): BlockTxView {
  return {
    hash: tx.hash,
    from: tx.from,
    to: tx.to ?? null,
    valueEth: formatEther(BigInt(tx.value)),
    status: receipt ? (receipt.status === '0x1' ? 'success' : 'failed') : 'unknown',
    ...(receipt
      ? {
          gasUsed: Number(BigInt(receipt.gasUsed)),
          logs: receipt.logs.length,
          contractCreated: receipt.contractAddress ?? null,
        }
      : {}),
  };
}

export function blockRoutes({ backend }: RouteContext) {
  const clients = new Map<string, RpcClient>();
  const rpcFor = (chain: string) => {
    const known = clients.get(chain);
    if (known) return known;
    const rpc = createRpcClient(backend.client, { chain });
    clients.set(chain, rpc);
    return rpc;
  };
  const routes = [
    defineRoute({
      method: 'GET',
      path: '/api/blocks/block',
      input: z.strictObject({ chain: nodeChain.default('eth'), number: optionalDigits() }),
      subject: ({ chain, number }) => `block ${number ?? 'latest'} on ${chain}`,
      handle: async ({ chain, number }): Promise<BlockView> => {
        const rpc = rpcFor(chain);
        const tag = number === undefined ? 'latest' : BigInt(number);
        // Made together, so the client sends them as one JSON-RPC batch.
        const [block, receipts, latest] = await Promise.all([
          rpc.getBlockByNumber(tag, true),
          rpc.getBlockReceipts(tag),
          rpc.request({ method: 'eth_blockNumber' }) as Promise<string>,
        ]);
        if (!block) {
          throw new DemoError(
            404,
            `Block ${number} does not exist yet: the latest on ${chain} is ${Number(latest)}.`,
          );
        }
        // With "latest", a block mined between the calls could pair a block with another's receipts.
        const matching =
          receipts?.every((receipt) => receipt.blockHash === block.hash) === true
            ? receipts
            : await rpc.getBlockReceipts(BigInt(block.number!));
        return toBlockView(chain, block, matching ?? [], Number(latest));
      },
    }),
  ];
  if (backend.devWallet) {
    const send = createTestTransferSender(rpcFor('eth'), backend.devWallet);
    routes.push(
      defineRoute({
        method: 'POST',
        path: '/api/blocks/send-test-transaction',
        input: z.strictObject({}),
        handle: (): Promise<SentTransfer> => send(),
      }),
    );
  }
  return routes;
}

function toBlockView(
  chain: string,
  block: Block<Transaction>,
  receipts: Receipt[],
  latest: number,
): BlockView {
  const byHash = new Map(receipts.map((receipt) => [receipt.transactionHash, receipt]));
  return {
    chain,
    number: Number(BigInt(block.number!)),
    hash: block.hash!,
    parentHash: block.parentHash,
    timestamp: Number(BigInt(block.timestamp)),
    gasUsed: Number(BigInt(block.gasUsed)),
    gasLimit: Number(BigInt(block.gasLimit)),
    miner: block.miner ?? '',
    latest: Math.max(latest, Number(BigInt(block.number!))),
    transactions: block.transactions.map((tx) => toTxView(tx, byHash.get(tx.hash))),
    ...(block.baseFeePerGas ? { baseFeeGwei: formatGwei(BigInt(block.baseFeePerGas)) } : {}),
  };
}
