// Response bodies for tests, shaped like a real node's (field for field as the contract lists them).
const bloom = `0x${'0'.repeat(512)}`;
const h = (byte: string) => `0x${byte.repeat(32)}`;

export const BLOCK_HASH = h('87');
export const TX_HASH = h('7d');
export const FROM = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266';
export const TO = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8';

export const fullTransaction = {
  blockHash: BLOCK_HASH,
  blockNumber: '0x12a05f2',
  from: FROM,
  gas: '0x5208',
  gasPrice: '0x77359400',
  maxFeePerGas: '0x77359400',
  maxPriorityFeePerGas: '0x3b9aca00',
  hash: TX_HASH,
  input: '0x',
  nonce: '0x0',
  to: TO,
  transactionIndex: '0x0',
  value: '0xde0b6b3a7640000',
  type: '0x2',
  accessList: [],
  chainId: '0xa86a',
  v: '0x0',
  r: '0x74128fd7d42631897474d93692787a2e56b813754468caaca4993c641c986a37',
  s: '0x6d5a3b027177cc2841199b70400fece0a29ac5eabee2fa9cbf9b6aa213716c48',
  yParity: '0x0',
};

/** A legacy transaction as older blocks hold it: no type, fee-market or access-list fields. */
export const minimalTransaction = {
  blockHash: BLOCK_HASH,
  blockNumber: '0x1',
  from: FROM,
  gas: '0x5208',
  gasPrice: '0x4a817c800',
  hash: TX_HASH,
  input: '0x',
  nonce: '0x0',
  to: null,
  transactionIndex: '0x0',
  value: '0x0',
  v: '0x1c',
  r: '0x1',
  s: '0x2',
};

const header = {
  difficulty: '0x0',
  extraData: '0xd883010d0e846765746888676f312e32312e36856c696e7578',
  gasLimit: '0x1c9c380',
  gasUsed: '0x5208',
  hash: BLOCK_HASH,
  logsBloom: bloom,
  miner: '0x95222290dd7278aa3ddd389cc1e1d165cc4bafe5',
  mixHash: h('c2'),
  nonce: '0x0000000000000000',
  number: '0x12a05f2',
  parentHash: h('3c'),
  receiptsRoot: h('f7'),
  sha3Uncles: '0x1dcc4de8dec75d7aab85b567b6ccd41ad312451b948a7413f0a142fd40d49347',
  size: '0x2e3',
  stateRoot: h('ef'),
  timestamp: '0x6b029c8d',
  transactionsRoot: h('61'),
  uncles: [],
};

/** Every field of the contract's Block, including the newer (base fee, blob, beacon, requests, withdrawals). */
export const fullBlock = {
  ...header,
  baseFeePerGas: '0x3b9aca00',
  blobGasUsed: '0x0',
  excessBlobGas: '0x0',
  parentBeaconBlockRoot: h('00'),
  requestsHash: '0xe3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
  withdrawals: [
    {
      index: '0x2e1b6e1',
      validatorIndex: '0x10e84f',
      address: '0xb9d7934878b5fb9610b3fe8a5e441e8fad7e293f',
      amount: '0x11a2e6a',
    },
  ],
  withdrawalsRoot: h('56'),
  transactions: [TX_HASH],
  // A field the contract does not list: passes through.
  blockGasCost: '0x0',
};

/** An older-style block: none of the base-fee, blob, beacon, requests or withdrawal fields. */
export const minimalBlock = { ...header, number: '0x1', transactions: [] };

export const uncle = { ...header, number: '0x5', uncles: [] };

export const log = {
  address: '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48',
  topics: [
    '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef',
    `0x000000000000000000000000${FROM.slice(2)}`,
    `0x000000000000000000000000${TO.slice(2)}`,
  ],
  data: '0x00000000000000000000000000000000000000000000000000000000000f4240',
  blockNumber: '0x12a05f2',
  transactionHash: TX_HASH,
  transactionIndex: '0x0',
  blockHash: BLOCK_HASH,
  logIndex: '0x0',
  removed: false,
};

export const fullReceipt = {
  transactionHash: TX_HASH,
  transactionIndex: '0x0',
  blockHash: BLOCK_HASH,
  blockNumber: '0x12a05f2',
  from: FROM,
  to: TO,
  cumulativeGasUsed: '0x5208',
  gasUsed: '0x5208',
  contractAddress: null,
  logs: [log],
  logsBloom: bloom,
  status: '0x1',
  effectiveGasPrice: '0x77359400',
  type: '0x2',
  blockTimestamp: 1795333261,
};

/** A pre-Byzantium receipt: `root` instead of `status`, no type or effective gas price. */
export const minimalReceipt = {
  transactionHash: TX_HASH,
  transactionIndex: '0x0',
  blockHash: BLOCK_HASH,
  blockNumber: '0x1',
  from: FROM,
  to: null,
  cumulativeGasUsed: '0x5208',
  gasUsed: '0x5208',
  contractAddress: '0x5fbdb2315678afecb367f032d93f642f64180aa3',
  logs: [],
  logsBloom: bloom,
  root: h('aa'),
};

export const proof = {
  address: FROM,
  accountProof: ['0xf90151a0b91a8b7a', '0xf8518080808080a0'],
  balance: '0x21e19e0c9bab2400000',
  codeHash: '0xc5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470',
  nonce: '0x0',
  storageHash: '0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421',
  storageProof: [{ key: h('00'), value: '0x0', proof: ['0x80'] }],
};

export const minimalProof = { ...proof, accountProof: [], storageProof: [] };
