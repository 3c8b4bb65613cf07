import { describe, expect, it } from 'vitest';
import { NODE_ACTIONS, type NodeAction } from '../nodes/Blockwire/actions';
import { toItems } from '../nodes/Blockwire/output';

function actionOf(id: string): NodeAction {
  const action = NODE_ACTIONS.find((candidate) => candidate.id === id);
  if (!action) throw new Error(`no action ${id}`);
  return action;
}

function itemOf(id: string, answer: unknown, simplified: boolean) {
  return toItems(answer, 0, { simplify: simplified ? actionOf(id).simplify : undefined })[0]!.json;
}

const HASH = '0x793497fb459c621d038e62832198967efcad4f83c47bd0fbc6c4d916615d22a3';

describe('JSON-RPC numbers as decimals under Simplify (issue 21, point 12)', () => {
  it('a receipt’s quantities read as numbers; hashes and addresses stay hex', () => {
    const receipt = actionOf('getTransactionReceipt').examples[0]!.response as Record<string, unknown>;
    const item = itemOf(
      'getTransactionReceipt',
      { ...receipt, blockNumber: '0x1a', gasUsed: '0x5208' },
      true,
    );
    expect(item).toMatchObject({
      blockNumber: 26,
      gasUsed: 21_000,
      status: 1,
      transactionHash: receipt.transactionHash,
    });
  });

  it('past 2^53 a quantity is an exact decimal string, never a rounded number', () => {
    const proof = actionOf('getProof').examples[0]!.response as Record<string, unknown>;
    const item = itemOf('getProof', { ...proof, balance: '0x21d9501c9886321b7bc', nonce: '0x6' }, true);
    expect(item.balance).toBe(BigInt('0x21d9501c9886321b7bc').toString());
    expect(item.balance).toBe('9990425628451111286716');
    expect(item.nonce).toBe(6);
    expect(item.address).toBe(proof.address);
  });

  it('a field named like a quantity elsewhere keeps its own meaning: a block’s nonce is data', () => {
    const block = actionOf('getBlockByNumber').examples[0]!.response as Record<string, unknown>;
    const item = itemOf('getBlockByNumber', { ...block, number: '0x2', nonce: '0x0000000000000042' }, true);
    expect(item.number).toBe(2);
    expect(item.nonce).toBe('0x0000000000000042');
    expect(item.hash).toBe(block.hash);
  });

  it('with Simplify off, the node’s raw hex is kept', () => {
    const receipt = actionOf('getTransactionReceipt').examples[0]!.response as Record<string, unknown>;
    const item = itemOf(
      'getTransactionReceipt',
      { ...receipt, transactionHash: HASH, gasUsed: '0x5208' },
      false,
    );
    expect(item.gasUsed).toBe('0x5208');
  });
});
