/**
 * Examples of the typed methods, taken from the emulator's seeded chain (a real anvil with
 * pinned timestamps, so hashes are the same on every run). Each round-trips in a test.
 */
import type { Block, Log, Proof, Receipt, Transaction } from '../schemas.js';

const EMPTY_BLOOM = `0x${'0'.repeat(512)}` as const;

export const SEEDED_TX_HASH = '0x793497fb459c621d038e62832198967efcad4f83c47bd0fbc6c4d916615d22a3';
export const SEEDED_BLOCK_HASH = '0x047efd49e577f25d8977f99be9d9ad3ae35ef943649e8163d224a212bbb462bb';

export const exampleBlock: Block = {
  hash: '0x047efd49e577f25d8977f99be9d9ad3ae35ef943649e8163d224a212bbb462bb',
  parentHash: '0x843530b761e91272f9c60334d593fc2e63e75a81eedf1e2938f96bc55fdee76f',
  sha3Uncles: '0x1dcc4de8dec75d7aab85b567b6ccd41ad312451b948a7413f0a142fd40d49347',
  miner: '0x0000000000000000000000000000000000000000',
  stateRoot: '0x8b226578a8055f1465ab35b5f33bc55f8dc44cbd43054f3318fd0430b21227d4',
  transactionsRoot: '0x61a5d669199587540d334f700be934e79904f3b80a6c77ca879bbc8454c4f111',
  receiptsRoot: '0x4b2883ee6b3beef46236ad9239e4e618df07b91e4df66276af436b7c9e6dc6b0',
  logsBloom: EMPTY_BLOOM,
  difficulty: '0x0',
  number: '0x1',
  gasLimit: '0x1c9c380',
  gasUsed: '0x15216',
  timestamp: '0x6774858c',
  extraData: '0x',
  mixHash: '0x028af7839d306e57fdeac9f21599a183f50796406222dd8ff98cb44234dd02e4',
  nonce: '0x0000000000000000',
  baseFeePerGas: '0x3b9aca00',
  withdrawalsRoot: '0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421',
  blobGasUsed: '0x0',
  excessBlobGas: '0x0',
  parentBeaconBlockRoot: '0x0000000000000000000000000000000000000000000000000000000000000000',
  requestsHash: '0xe3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
  totalDifficulty: '0x0',
  size: '0x30f',
  uncles: [],
  transactions: ['0x793497fb459c621d038e62832198967efcad4f83c47bd0fbc6c4d916615d22a3'],
  withdrawals: [],
};

export const exampleTransaction: Transaction = {
  type: '0x2',
  chainId: '0x7a69',
  nonce: '0x0',
  gas: '0x30000',
  maxFeePerGas: '0x77359400',
  maxPriorityFeePerGas: '0x3b9aca00',
  to: null,
  value: '0x0',
  accessList: [],
  input:
    '0x602a6000556034601160003960346000f3600054600101600055336000527ffee8775ba9b0f00b87db291c081d99de518bdebb6ccfa2482cc5882fe69307e560206000a100',
  r: '0x8d684f56115d7814e757891c8ca429ee2cb151cb3d6b7f2d2a1bc32477d18af3',
  s: '0x2e8deb593940b6aaee6eed42ba402b3ff5a3341fec4c735d2f1b0214eda229de',
  yParity: '0x0',
  v: '0x0',
  hash: '0x793497fb459c621d038e62832198967efcad4f83c47bd0fbc6c4d916615d22a3',
  blockHash: '0x047efd49e577f25d8977f99be9d9ad3ae35ef943649e8163d224a212bbb462bb',
  blockNumber: '0x1',
  transactionIndex: '0x0',
  from: '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266',
  gasPrice: '0x77359400',
  blockTimestamp: '0x6774858c',
};

export const exampleReceipt: Receipt = {
  type: '0x2',
  status: '0x1',
  cumulativeGasUsed: '0x15216',
  logs: [],
  logsBloom: EMPTY_BLOOM,
  transactionHash: '0x793497fb459c621d038e62832198967efcad4f83c47bd0fbc6c4d916615d22a3',
  transactionIndex: '0x0',
  blockHash: '0x047efd49e577f25d8977f99be9d9ad3ae35ef943649e8163d224a212bbb462bb',
  blockNumber: '0x1',
  gasUsed: '0x15216',
  effectiveGasPrice: '0x77359400',
  blobGasPrice: '0x1',
  from: '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266',
  to: null,
  contractAddress: '0x5fbdb2315678afecb367f032d93f642f64180aa3',
  blockTimestamp: 1735689612,
};

export const exampleProof: Proof = {
  address: '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266',
  balance: '0x21d9501c9886321b7bc',
  codeHash: '0xc5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470',
  nonce: '0x6',
  storageHash: '0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421',
  accountProof: [
    '0xf90151a0e1534879fdbc59f0f671077ba2498b50e81f848a61befc733896f39c39473262a0d6e280a8c8b50e06b5e88fae797de1ff76467b216eb290dad9ca9dcfb12795438080a08c4e6607f5faea28e6bc188baf387324b52d72c59fc88e2aa33bfb13e20e3f3ea05bac82377a144169bbc6da32b48abc928a59b18c31562d8a6c7c8fad1b92de8ca0c60bb63523f15600df5b873500b088d54397efc981ba948fece1fc7dbff707db80a0d1e8f9c8e0a9cf139b7fde546421be73d628b5860c5a754c46a95e1a61067208a0545372957f5b61492f57f5f9028d335cfd66c85fac687d7774efc19c00c3b31280a0d8f8c9afac4b52d460a45f6fef4b3a189a6997e25dbaed1a10a8aff7fc77c96b8080a0548dec134df1b6d577e3e416b2f7b5d1d5d91fd67a8828857e4f4045c0ae6449a0e628ff0728d461a66e29920dfb2ba441c3b3585604470c063e08be73206931d480',
  ],
  storageProof: [],
};

/** The contract the seed deploys: each call stores a counter and emits `Ping(address caller)`. */
export const SEEDED_CONTRACT = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
/** The first dev account of anvil's default mnemonic. */
export const DEV_ACCOUNT = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';

const PING_TOPIC = '0xfee8775ba9b0f00b87db291c081d99de518bdebb6ccfa2482cc5882fe69307e5';

export const exampleLogs: Log[] = [
  {
    address: '0x5fbdb2315678afecb367f032d93f642f64180aa3',
    topics: [PING_TOPIC],
    data: '0x000000000000000000000000f39fd6e51aad88f6f4ce6ab8827279cfffb92266',
    blockHash: '0x2838ec699ef25a6f49cafca7ca337559a6f4dce98c27f1b33ddc64a675d29e7b',
    blockNumber: '0x4',
    blockTimestamp: '0x677485b0',
    transactionHash: '0xca6796934cd6ccdc2a92495360cc950d64dc0785b6d198f284c210c2e522d39a',
    transactionIndex: '0x1',
    logIndex: '0x0',
    removed: false,
  },
  {
    address: '0x5fbdb2315678afecb367f032d93f642f64180aa3',
    topics: [PING_TOPIC],
    data: '0x00000000000000000000000070997970c51812dc3a010c7d01b50e0d17dc79c8',
    blockHash: '0xd6a3d01284df624a64c901301e0b663deada4f19181d4187db83e7e31e13a376',
    blockNumber: '0x5',
    blockTimestamp: '0x677485bc',
    transactionHash: '0x23430bbdb3fbb7020f2d2b0855c0b8b8ed74668d5f48bae23efacb1070a29c19',
    transactionIndex: '0x0',
    logIndex: '0x0',
    removed: false,
  },
];
