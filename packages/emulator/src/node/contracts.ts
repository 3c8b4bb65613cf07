/**
 * The contracts on the emulator's chain besides the seeded one: two ERC-20 tokens (18 and 6
 * decimals) with balances on the first dev accounts, a contract that is not a token, and one whose
 * calls revert. Their code (compiled from contracts/*.sol, see contracts.generated.ts) is set at
 * fixed addresses and their balances written into storage with anvil_setCode/anvil_setStorageAt:
 * no transaction, so the seeded blocks and their hashes stay as they are.
 */
import { keccak_256 } from '@noble/hashes/sha3.js';
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';
import { compiledContracts } from './contracts.generated.js';

/** anvil's first three dev accounts (its default mnemonic). */
const DEV_ACCOUNTS = [
  '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
  '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
  '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC',
] as const;

export interface FixtureToken {
  address: string;
  name: string;
  symbol: string;
  decimals: number;
  /** Raw amounts (smallest unit) by holder. */
  balances: Readonly<Record<string, bigint>>;
  totalSupply: bigint;
}

function token(
  address: string,
  name: string,
  symbol: string,
  decimals: number,
  amounts: readonly bigint[],
): FixtureToken {
  const balances = Object.fromEntries(amounts.map((amount, i) => [DEV_ACCOUNTS[i]!, amount]));
  return { address, name, symbol, decimals, balances, totalSupply: amounts.reduce((a, b) => a + b, 0n) };
}

/** The ERC-20s, with balances that need every digit: 1234.567890123456789012 BWT, 1 wei-unit … */
export const FIXTURE_TOKENS = {
  BlockwireToken: token('0xB10c000000000000000000000000000000000012', 'Blockwire Token', 'BWT', 18, [
    1_234_567_890_123_456_789_012n,
    500n * 10n ** 18n,
    1n,
  ]),
  BlockwireDollar: token('0xB10c000000000000000000000000000000000006', 'Blockwire Dollar', 'BWUSD', 6, [
    2_500_750_000n,
    1_000_000_000n,
    1n,
  ]),
} as const;

/** Has `name()` and `balanceOf(address)` but no `decimals()`: not an ERC-20. */
export const NOT_A_TOKEN = '0xb10C0000000000000000000000000000000000AA';
/** `alwaysReverts()` reverts with Error(string), `divide(a, 0)` with Panic(0x12), `onlyNobody()` with a custom error. */
export const REVERTER = '0xb10C0000000000000000000000000000000000eE';

export interface FixtureContracts {
  tokens: { BlockwireToken: FixtureToken; BlockwireDollar: FixtureToken };
  notAToken: string;
  reverter: string;
}

type Rpc = (method: string, params: unknown[]) => Promise<unknown>;

const word = (value: bigint) => value.toString(16).padStart(64, '0');

/** The storage slot of `mapping(address => uint256)` at `slot` for `key`: keccak256(key . slot). */
function mappingSlot(key: string, slot: number): string {
  return `0x${bytesToHex(keccak_256(hexToBytes(word(BigInt(key)) + word(BigInt(slot)))))}`;
}

/** Sets the contracts' code and the tokens' balances on the node at `rpc`. */
export async function installFixtureContracts(rpc: Rpc): Promise<FixtureContracts> {
  for (const [name, spec] of Object.entries(FIXTURE_TOKENS)) {
    const compiled = compiledContracts[name as keyof typeof FIXTURE_TOKENS];
    await rpc('anvil_setCode', [spec.address, compiled.code]);
    for (const [holder, amount] of Object.entries(spec.balances)) {
      await rpc('anvil_setStorageAt', [
        spec.address,
        mappingSlot(holder, compiled.slots.balanceOf),
        `0x${word(amount)}`,
      ]);
    }
    await rpc('anvil_setStorageAt', [
      spec.address,
      `0x${word(BigInt(compiled.slots.totalSupply))}`,
      `0x${word(spec.totalSupply)}`,
    ]);
  }
  await rpc('anvil_setCode', [NOT_A_TOKEN, compiledContracts.NotAToken.code]);
  await rpc('anvil_setCode', [REVERTER, compiledContracts.Reverter.code]);
  return { tokens: FIXTURE_TOKENS, notAToken: NOT_A_TOKEN, reverter: REVERTER };
}
