/**
 * "Send a test transaction" on the emulator, as a wallet does it: sign a transfer with a dev
 * account's key and send it raw. The node interface is a hosted node's: it holds no keys, so it
 * serves no `eth_sendTransaction`, only `eth_sendRawTransaction`.
 */
import type { RpcClient } from '@blockwire/rpc';
import { addressOf, signTransfer } from './eip1559.js';
import { DemoError } from './problems.js';

/**
 * The first dev account of anvil's default mnemonic ("test test … junk"), which the emulator's
 * anvil uses: a published key, holding test ether on local chains only.
 */
export const ANVIL_FIRST_DEV_KEY = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';

const TRANSFER_WEI = 10n ** 16n; // 0.01 ether
const TRANSFER_GAS = 21_000n;
const RECEIPT_WAIT_MS = 10_000;
const RECEIPT_POLL_MS = 50;

export interface DevWallet {
  address: string;
  privateKey: string;
  /** The other dev accounts: where test transfers go. */
  recipients: string[];
}

/**
 * The wallet of the node's dev accounts, when one of them is the published key's (a node
 * started with another mnemonic gets no button rather than a transfer that cannot be signed).
 */
export function devWalletOf(accounts: readonly string[] | undefined): DevWallet | undefined {
  const address = addressOf(ANVIL_FIRST_DEV_KEY);
  const lower = (accounts ?? []).map((account) => account.toLowerCase());
  if (!lower.includes(address)) return undefined;
  const recipients = lower.filter((account) => account !== address);
  return recipients.length > 0 ? { address, privateKey: ANVIL_FIRST_DEV_KEY, recipients } : undefined;
}

export interface SentTransfer {
  hash: string;
  blockNumber: number;
}

/**
 * Sends 0.01 ether from the wallet to one of the other dev accounts and waits for its receipt.
 * One transfer at a time: two signed at once would take the same nonce.
 */
export function createTestTransferSender(rpc: RpcClient, wallet: DevWallet): () => Promise<SentTransfer> {
  let last: Promise<unknown> = Promise.resolve();
  return () => {
    const next = last.then(() => sendTransfer(rpc, wallet));
    last = next.catch(() => {});
    return next;
  };
}

async function sendTransfer(rpc: RpcClient, wallet: DevWallet): Promise<SentTransfer> {
  const to = wallet.recipients[Math.floor(Math.random() * wallet.recipients.length)]!;
  // Made together, so the client sends them as one JSON-RPC batch.
  const [chainId, nonce, tip, latest] = await Promise.all([
    rpc.request({ method: 'eth_chainId' }),
    rpc.request({ method: 'eth_getTransactionCount', params: [wallet.address, 'pending'] }),
    rpc.request({ method: 'eth_maxPriorityFeePerGas' }),
    rpc.getBlockByNumber('latest'),
  ]);
  const maxPriorityFeePerGas = quantity(tip, 'eth_maxPriorityFeePerGas');
  // Room for the base fee to double before the transfer is mined, as wallets allow.
  const baseFee = latest?.baseFeePerGas ? quantity(latest.baseFeePerGas, 'the base fee') : 0n;
  const raw = signTransfer(
    {
      chainId: quantity(chainId, 'eth_chainId'),
      nonce: quantity(nonce, 'eth_getTransactionCount'),
      maxPriorityFeePerGas,
      maxFeePerGas: 2n * baseFee + maxPriorityFeePerGas,
      gas: TRANSFER_GAS,
      to,
      value: TRANSFER_WEI,
    },
    wallet.privateKey,
  );
  const hash = await rpc.request({ method: 'eth_sendRawTransaction', params: [raw] });
  if (typeof hash !== 'string') throw new DemoError(502, 'The node answered the transfer without its hash.');
  return { hash, blockNumber: await minedIn(rpc, hash) };
}

async function minedIn(rpc: RpcClient, hash: string): Promise<number> {
  const deadline = Date.now() + RECEIPT_WAIT_MS;
  for (;;) {
    const receipt = await rpc.getTransactionReceipt(hash);
    if (receipt?.blockNumber) return Number(quantity(receipt.blockNumber, 'the receipt’s block number'));
    if (Date.now() > deadline)
      throw new DemoError(
        504,
        `The transfer ${hash} was sent, but no block held it after ${RECEIPT_WAIT_MS / 1000} s.`,
      );
    await new Promise((resolve) => setTimeout(resolve, RECEIPT_POLL_MS));
  }
}

function quantity(value: unknown, what: string): bigint {
  if (typeof value === 'string' && /^0x[0-9a-fA-F]{1,64}$/.test(value)) return BigInt(value);
  throw new DemoError(502, `The node answered ${what} with something that is not a number.`);
}
