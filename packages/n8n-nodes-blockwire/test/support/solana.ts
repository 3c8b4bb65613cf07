// The Solana addresses and mints the e2e workflows use live with the harness (the reliability suite uses them too).
export { solanaAddresses, USDC, WRAPPED_SOL } from '../../e2e/solana.ts';
