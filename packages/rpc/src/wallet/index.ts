/** The wallet reads, one file each (see ./wallet-read.ts): what the n8n node and the MCP server offer. */
import { getBalanceRead } from './getBalance.js';
import { getBlockNumberRead } from './getBlockNumber.js';
import { getGasPriceRead } from './getGasPrice.js';
import { getLogsRead } from './getLogs.js';
import { getTokenBalanceRead } from './getTokenBalance.js';
import { readContractRead } from './readContract.js';

export { defineWalletRead, toJson, type WalletRead, walletOperationId } from './wallet-read.js';
export {
  getBalanceRead,
  getBlockNumberRead,
  getGasPriceRead,
  getLogsRead,
  getTokenBalanceRead,
  readContractRead,
};

export const walletReads = [
  getBalanceRead,
  getTokenBalanceRead,
  readContractRead,
  getLogsRead,
  getBlockNumberRead,
  getGasPriceRead,
] as const;
