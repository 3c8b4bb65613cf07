/** Realistic bodies for the tests, shaped like the contract's examples. */
export const binanceSummary = {
  name: 'Binance',
  id: 'binance',
  logo: 'https://logo.example/binance.png',
  bio: 'Cryptocurrency exchange',
  description: 'Binance is a global cryptocurrency exchange.',
  website: 'https://www.binance.com',
  twitter: 'https://twitter.com/binance',
  type: 'exchange',
};

export const binanceEntity = {
  ...binanceSummary,
  addresses: [
    {
      address: '0x28c6c06298d514db089934071355e5743bf21d60',
      chain: 'eth',
      is_multi_chain: false,
      primary_label: 'Binance 14',
      additional_labels: [['hot wallet'], ['exchange', 'cex']],
    },
    {
      address: '0xf977814e90da44bfa03b6295a0616a897441acec',
      chain: 'eth',
      is_multi_chain: true,
      primary_label: 'Binance 8',
      additional_labels: [],
    },
  ],
};

export const exchangesCategory = { name: 'Exchanges', id: 'exchanges', total_entities: 412 };
