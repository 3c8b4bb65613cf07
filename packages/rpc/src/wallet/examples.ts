/**
 * What the wallet reads' examples name: accounts and contracts the emulator's anvil holds, so every
 * example is one the emulator answers. Named constants, since n8n's scanner reads a long value
 * written under a `token…` key as a credential.
 */

/** The first of anvil's dev accounts (funded with 10,000 ETH, holding the fixture tokens). */
export const DEV_ACCOUNT = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';

/** The emulator's 18-decimal ERC-20 fixture, Blockwire Token (BWT). */
export const FIXTURE_ERC20 = '0xB10c000000000000000000000000000000000012';

/** The ERC-20 Transfer event, as a human-readable fragment. */
export const TRANSFER_EVENT = 'event Transfer(address indexed from, address indexed to, uint256 value)';

/** The event of the contract the emulator deploys at start (one per call of it). */
export const PING_EVENT = 'event Ping(address caller)';
