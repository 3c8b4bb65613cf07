/**
 * The values the operations' examples share: one stream, one watched address, one xpub, as the
 * emulator answers them (each example round-trips in the emulator's tests).
 */
export const EXAMPLE_STREAM_ID = '0da99a82-5b1f-48da-962b-d9f5f4239942';
export const EXAMPLE_ADDRESS = 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu';
export const EXAMPLE_ZPUB =
  'zpub6rFR7y4Q2AijBEqTUquhVz398htDFrtymD9xYYfG1m4wAcvPhXNfE3EfH1r1ADqtfSdVCToUG868RvUUkgDKf31mGDtKsAYz2oz2AGutZYs';
export const EXAMPLE_XPUB_ID = '11878b41-5799-4688-96c2-fd6a1c2b2a01';

export const exampleStream = {
  id: EXAMPLE_STREAM_ID,
  webhookUrl: 'https://example.com/webhooks/bitcoin',
  description: 'Treasury watch',
  tag: 'treasury',
  network: ['mainnet'],
  includeInputs: false,
  includeOutputs: true,
  allAddresses: false,
  demo: false,
  status: 'active' as const,
  statusMessage: 'Stream is active',
  isErrorSince: null,
  updatedAt: '2026-11-23T09:15:32.660Z',
  amountOfAddresses: 1,
};

export const exampleXpub = {
  id: EXAMPLE_XPUB_ID,
  streamId: EXAMPLE_STREAM_ID,
  xpub: EXAMPLE_ZPUB,
  addressType: 'p2wpkh',
  receiveAddresses: [EXAMPLE_ADDRESS],
};
