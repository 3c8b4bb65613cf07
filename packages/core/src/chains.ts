import { ValidationError } from './errors.js';
import { nearest, shown } from './suggest.js';

export interface Chain {
  /** The chain's name as the service spells it, e.g. `eth` or `bsc testnet`. */
  name: string;
  /** The chain id in minimal lowercase hex, e.g. `0x1`. */
  hexId: string;
}

/** Every chain the EVM data interface accepts, by name and hex id, in the contract's order. */
export const EVM_CHAINS: readonly Chain[] = Object.freeze(
  (
    [
      ['eth', '0x1'],
      ['sepolia', '0xaa36a7'],
      ['polygon', '0x89'],
      ['bsc', '0x38'],
      ['bsc testnet', '0x61'],
      ['avalanche', '0xa86a'],
      ['fantom', '0xfa'],
      ['cronos', '0x19'],
      ['arbitrum', '0xa4b1'],
      ['chiliz', '0x15b38'],
      ['chiliz testnet', '0x15b32'],
      ['gnosis', '0x64'],
      ['gnosis testnet', '0x27d8'],
      ['base', '0x2105'],
      ['base sepolia', '0x14a34'],
      ['optimism', '0xa'],
      ['polygon amoy', '0x13882'],
      ['linea', '0xe708'],
      ['moonbeam', '0x504'],
      ['moonriver', '0x505'],
      ['moonbase', '0x507'],
      ['linea sepolia', '0xe705'],
      ['flow', '0x2eb'],
      ['flow-testnet', '0x221'],
      ['ronin', '0x7e4'],
      ['ronin-testnet', '0x31769'],
      ['lisk', '0x46f'],
      ['lisk-sepolia', '0x106a'],
      ['pulse', '0x171'],
      ['sei-testnet', '0x530'],
      ['sei', '0x531'],
      ['monad', '0x8f'],
    ] as const
  ).map(([name, hexId]) => Object.freeze({ name, hexId })),
);

const byName = new Map(EVM_CHAINS.map((chain) => [chain.name, chain]));

/** Names people use for a chain the contract names otherwise: only ever a suggestion, never resolved. */
const COMMON_NAMES: ReadonlyMap<string, string> = new Map([
  ['ethereum', 'eth'],
  ['mainnet', 'eth'],
  ['matic', 'polygon'],
  ['binance', 'bsc'],
  ['bnb', 'bsc'],
  ['avax', 'avalanche'],
  ['op', 'optimism'],
  ['xdai', 'gnosis'],
]);

/** Longer than any chain name or id; longer input is refused without being parsed. */
const MAX_CHAIN_INPUT_LENGTH = 64;
const byId = new Map(EVM_CHAINS.map((chain) => [BigInt(chain.hexId), chain]));

/** The spellings most calls use, looked up as they are: a name, the hex id, the decimal id. */
const bySpelling = new Map<string | number, Chain>(
  EVM_CHAINS.flatMap((chain) => {
    const id = Number(chain.hexId);
    return [chain.name, rpcChainSegment(chain), chain.hexId, String(id), id].map(
      (spelling) => [spelling, chain] as const,
    );
  }),
);

/**
 * A chain's path segment on the JSON-RPC node interface (`POST {node}/{segment}/{key}`): its name
 * with hyphens for spaces, `bsc testnet` → `bsc-testnet`. The SDK, the emulator and the n8n node
 * all spell node URLs with this.
 */
export function rpcChainSegment(chain: Pick<Chain, 'name'>): string {
  return chain.name.replace(/ /g, '-');
}

/** The chain for a name (`eth`), a hex id (`0x1`, `0X01`), or a decimal id (`1`, `"1"`); undefined if unknown. */
export function findChain(input: string | number | bigint): Chain | undefined {
  const known = bySpelling.get(input as string | number);
  if (known) return known;
  if (typeof input === 'number' || typeof input === 'bigint') {
    return Number.isInteger(Number(input)) && Number(input) >= 0 ? byId.get(BigInt(input)) : undefined;
  }
  if (typeof input !== 'string' || input.length > MAX_CHAIN_INPUT_LENGTH) return undefined;
  const text = input.trim().toLowerCase();
  if (/^0x[0-9a-f]+$/.test(text) || /^\d+$/.test(text)) return byId.get(BigInt(text));
  // Hyphens and spaces are used interchangeably by people ("bsc-testnet", "flow testnet").
  return byName.get(text) ?? byName.get(text.replace(/-/g, ' ')) ?? byName.get(text.replace(/ /g, '-'));
}

/** Like {@link findChain}, but an unknown chain is a `ValidationError` that lists the valid ones. */
export function resolveChain(input: string | number | bigint): Chain {
  const chain = findChain(input);
  if (!chain) {
    throw new ValidationError([{ path: 'chain', message: unknownChainMessage(input) }], { subject: 'chain' });
  }
  return chain;
}

/** The message for a chain that is not in the registry: the nearest one, then every valid chain. */
export function unknownChainMessage(input: unknown): string {
  const valid = EVM_CHAINS.map((chain) => `${chain.name} (${chain.hexId})`).join(', ');
  const suggestion = typeof input === 'string' ? suggestChain(input) : undefined;
  const hint = suggestion ? ` (did you mean "${suggestion.name}"?)` : '';
  return `unknown chain ${shown(input)}${hint}; use one of: ${valid}`;
}

/**
 * The registry chain a mistyped or common name most likely means (`etherum`, `matic`, `bnb` →
 * eth, polygon, bsc), by edit distance or prefix; undefined when none is close.
 */
export function suggestChain(input: string): Chain | undefined {
  const text = input.trim().toLowerCase();
  const name =
    COMMON_NAMES.get(text) ??
    nearest(text, [...byName.keys()]) ??
    COMMON_NAMES.get(nearest(text, [...COMMON_NAMES.keys()]) ?? '');
  return name === undefined ? undefined : byName.get(name);
}
