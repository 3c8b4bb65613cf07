import type { ChainState } from '../bitcoin/chain-state.js';
import { SeededRandom } from '../bitcoin/random.js';
import type { XpubAddressType } from '../bitcoin/xpub.js';

export type StreamStatus = 'active' | 'paused' | 'error' | 'terminated';
export type Region = 'us-east-1' | 'us-west-2' | 'eu-central-1' | 'ap-southeast-1';

export interface EvmStreamRecord {
  id: string;
  webhookUrl: string;
  description: string;
  tag: string;
  chainIds: string[];
  status: StreamStatus;
  statusMessage: string;
  updatedAt: string;
  amountOfAddresses: number;
  topic0: string[] | null;
  allAddresses: boolean;
  includeNativeTxs: boolean;
  includeContractLogs: boolean;
  includeInternalTxs: boolean;
  includeAllTxLogs: boolean;
  filterPossibleSpamAddresses: boolean;
  demo: boolean;
}

export interface BitcoinStreamRecord {
  id: string;
  webhookUrl: string;
  description: string;
  tag: string;
  network: ['mainnet'];
  includeInputs: boolean;
  includeOutputs: boolean;
  allAddresses: boolean;
  demo: boolean;
  status: StreamStatus;
  statusMessage: string;
  isErrorSince: string | null;
  createdAt: string;
  updatedAt: string;
}

// A type, not an interface: served as is, it must fit the response schema's open object.
export type AddressRecord = {
  address: string;
  createdAt: string;
};

export interface XpubRecord {
  id: string;
  xpub: string;
  addressType: XpubAddressType;
  /** Unused addresses watched past the last used one, on each chain (BIP44 gap limit). */
  gap: number;
  /** Highest used index + 1 on the receive (0) and change (1) chains. */
  used: [number, number];
  createdAt: string;
}

/** Everything the streams interface keeps; JSON-serialisable, what `--state FILE` persists. */
export interface StreamsState {
  version: 1;
  settings: { region: Region; secretKey: string };
  evmStreams: EvmStreamRecord[];
  bitcoinStreams: BitcoinStreamRecord[];
  /** Watched addresses by Bitcoin stream id. */
  addresses: Record<string, AddressRecord[]>;
  /** Attached xpubs by Bitcoin stream id. */
  xpubs: Record<string, XpubRecord[]>;
  /** The simulated Bitcoin chain's last blocks and mempool (absent in files of older versions). */
  bitcoinChain?: ChainState;
}

/** The secret deliveries are signed with until `updateSettings` sets another (random-looking, like the default key). */
export const DEFAULT_SECRET_KEY = 'bw-emu-secret-9d3e5b7106';

/** Fixed ids of the EVM streams every emulator starts with (their other fields follow the seed). */
export const SEEDED_EVM_STREAM_IDS = [
  '6f0c1b7e-2f4a-4c35-9a51-8e2d3c4b5a61',
  'b3e1d2c4-5a6b-4c7d-8e9f-0a1b2c3d4e5f',
  'c9a8b7d6-e5f4-4a3b-9c2d-1e0f9a8b7c6d',
] as const;

const EVM_CHAINS = ['0x1', '0x89', '0x38', '0xa4b1', '0x2105', '0xa', '0xa86a'];
const PURPOSES = ['USDC treasury transfers', 'DEX swaps watcher', 'NFT mint alerts', 'Whale wallet activity'];

export function initialState(seed: number): StreamsState {
  const random = new SeededRandom(seed ^ 0x5eed);
  const now = new Date(Date.UTC(2025, 0, 1)).toISOString();
  const evmStreams = SEEDED_EVM_STREAM_IDS.map((id, i): EvmStreamRecord => {
    const chainIds = EVM_CHAINS.filter(() => random.int(0, 2) === 0);
    return {
      id,
      webhookUrl: `https://example.com/webhooks/evm/${i + 1}`,
      description: random.pick(PURPOSES),
      tag: `evm-${i + 1}`,
      chainIds: chainIds.length > 0 ? chainIds : ['0x1'],
      status: 'active',
      statusMessage: 'Stream is active',
      updatedAt: now,
      amountOfAddresses: random.int(0, 25),
      topic0: i === 1 ? ['Transfer(address,address,uint256)'] : null,
      allAddresses: false,
      includeNativeTxs: random.int(0, 1) === 1,
      includeContractLogs: true,
      includeInternalTxs: false,
      includeAllTxLogs: false,
      filterPossibleSpamAddresses: i === 0,
      demo: false,
    };
  });
  return {
    version: 1,
    settings: { region: 'us-east-1', secretKey: DEFAULT_SECRET_KEY },
    evmStreams,
    bitcoinStreams: [],
    addresses: {},
    xpubs: {},
  };
}
