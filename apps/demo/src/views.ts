/**
 * What the demo server sends the page: the one definition of the JSON between them. The server
 * builds these from the SDK's results; the page's scripts are type-checked against them (JSDoc).
 * Only fields listed here reach the browser.
 */
import type { BitcoinDeliveryStage } from '@blockwire/streams';

export interface Chain {
  name: string;
  hexId: string;
}

export interface TokenExample {
  label: string;
  chain: string;
  address: string;
}

export interface InfoView {
  mode: 'emulator' | 'service';
  /** What the demo talks to, in words (never the key). */
  backend: { label: string; detail: string };
  chains: Chain[];
  /** Chain path segments of the JSON-RPC node interface. */
  nodeChains: string[];
  /** What the blocks panel must say about those chains (on the emulator: they are one local chain). */
  nodeChainsNote?: string;
  examples: { evm: TokenExample[]; solana: { label: string; address: string }[] };
  /** The emulator's dev accounts can send EVM transactions (there is a local node). */
  evmSimulator: boolean;
  bitcoin: BitcoinStatusView;
}

export interface BitcoinStatusView {
  /** The demo stream exists and delivers to this demo's receiver. */
  enabled: boolean;
  /** Why it is not, in a sentence. */
  reason?: string;
  /** The simulator's buttons work (emulator only). */
  simulator: boolean;
  streamId?: string;
  /** The stream delivers every Bitcoin transaction, not only the watched ones. */
  allAddresses: boolean;
  watched: string[];
  /** Height of the simulated chain's tip, once known. */
  tip?: number;
}

export interface PriceView {
  chain: Chain;
  tokenAddress: string;
  name?: string;
  symbol?: string;
  usdPrice: number;
  /** Percent change over 24 hours, e.g. -0.34. */
  change24hPercent?: number;
  pairLiquidityUsd?: number;
  pairAddress?: string;
  exchangeName?: string;
  exchangeAddress?: string;
  securityScore?: number;
  possibleSpam: boolean;
  verifiedContract: boolean;
  /** The block the price is for (the head unless a block was asked for). */
  block?: string;
  nativePrice?: { value: string; decimals: number; symbol: string };
}

export interface SolanaPriceRow {
  tokenAddress: string;
  name?: string;
  symbol?: string;
  usdPrice?: number;
  change24hPercent?: number;
  exchangeName?: string;
  score?: number;
  verified?: boolean;
}

export interface SolanaPricesView {
  network: 'mainnet' | 'devnet';
  prices: SolanaPriceRow[];
  /** Distinct addresses asked for. */
  asked: number;
  /** Addresses the service had no price for. */
  missing: string[];
  /** HTTP requests the SDK sent to the service (at most 100 addresses each; retries count). */
  calls: number;
}

export interface EntitySummaryView {
  id: string;
  name: string;
  type?: string;
  bio?: string;
  totalAddresses?: number;
}

export interface LabelledAddressView {
  address: string;
  chain?: string;
  multiChain?: boolean;
  label?: string;
  labels: string[];
  entity?: { id: string; name: string };
}

export interface CategoryView {
  id: string;
  name: string;
  totalEntities?: number;
}

export interface SearchView {
  query: string;
  entities: EntitySummaryView[];
  addresses: LabelledAddressView[];
  categories: CategoryView[];
}

export interface EntityView extends EntitySummaryView {
  description?: string;
  website?: string;
  twitter?: string;
  addresses: LabelledAddressView[];
}

export interface CategoryPageView {
  categoryId: string;
  page: number;
  entities: EntitySummaryView[];
  /** Another page may follow. */
  more: boolean;
}

export interface BlockTxView {
  hash: string;
  from: string;
  to: string | null;
  /** Value in ether, as a decimal string. */
  valueEth: string;
  /** `success`, `failed`, or `unknown` without a receipt. */
  status: 'success' | 'failed' | 'unknown';
  gasUsed?: number;
  logs?: number;
  contractCreated?: string | null;
}

export interface BlockView {
  chain: string;
  number: number;
  hash: string;
  parentHash: string;
  timestamp: number;
  gasUsed: number;
  gasLimit: number;
  baseFeeGwei?: string;
  miner: string;
  transactions: BlockTxView[];
  /** The chain's latest block number (to page forward). */
  latest: number;
}

export interface BoardRow {
  txid: string;
  stage: BitcoinDeliveryStage;
  coinbase: boolean;
  /** `null` while in the mempool. */
  blockHeight: number | null;
  /** Sum of the outputs, exact. */
  valueSats: string;
  valueBtc: string;
  /** What the watched addresses receive in it (`0` when none is paid). */
  receivedSats: string;
  receivedBtc: string;
  /** Watched addresses it pays or spends from. */
  watchedAddresses: string[];
  firstSeenAt: number;
  updatedAt: number;
}

/** Server-sent events of `/api/bitcoin/events`: the `data` of each event name. */
/** The answer to watching an address: the board's status, and whether the address is new to it. */
export interface WatchView extends BitcoinStatusView {
  added: boolean;
}

export interface BoardEvents {
  /** The board (the most recently moved transactions, at most `size`), first thing after connecting. */
  board: { rows: BoardRow[]; status: BitcoinStatusView; size: number };
  /** One transaction moved forward (or appeared). */
  tx: BoardRow;
  /** The stream's settings or the tip changed. */
  status: BitcoinStatusView;
}

export interface ProblemView {
  message: string;
  field?: string;
}
