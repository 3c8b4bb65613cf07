// The addresses live beside the e2e harness, which the benchmarks (bench/) and the reliability suite load as ES modules too.
export { solanaAddresses, solanaBatchAddresses, USDC, WRAPPED_SOL } from '../../e2e/solana-addresses.ts';
