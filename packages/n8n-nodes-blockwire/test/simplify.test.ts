import { describe, expect, it } from 'vitest';
import { NODE_ACTIONS, type NodeAction } from '../nodes/Blockwire/actions';
import { Blockwire } from '../nodes/Blockwire/Blockwire.node';
import { toItems } from '../nodes/Blockwire/output';

function actionOf(id: string): NodeAction {
  const action = NODE_ACTIONS.find((candidate) => candidate.id === id);
  if (!action) throw new Error(`no action ${id}`);
  return action;
}

function exampleOf(id: string): Record<string, unknown> {
  return actionOf(id).examples[0]!.response as Record<string, unknown>;
}

/** The keys of the items the node gives for `answers`, simplified as the action's Simplify does. */
function simplifiedKeys(id: string, answers: unknown[]): string[][] {
  const action = actionOf(id);
  return answers.map((answer, index) =>
    Object.keys(toItems(answer, index, { simplify: action.simplify })[0]!.json).sort(),
  );
}

const LOG = {
  address: '0x5fbdb2315678afecb367f032d93f642f64180aa3',
  topics: ['0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef'],
  data: '0x',
  blockNumber: '0x1',
  transactionHash: '0x793497fb459c621d038e62832198967efcad4f83c47bd0fbc6c4d916615d22a3',
  transactionIndex: '0x0',
  blockHash: '0x047efd49e577f25d8977f99be9d9ad3ae35ef943649e8163d224a212bbb462bb',
  logIndex: '0x0',
  removed: false,
};

describe('Simplify (issue 21, point 3)', () => {
  it('is on by default wherever the node offers it', () => {
    const simplify = new Blockwire().description.properties.filter(
      (property) => property.name === 'simplify',
    );
    expect(simplify.length).toBeGreaterThan(5);
    for (const property of simplify)
      expect(property.default, JSON.stringify(property.displayOptions)).toBe(true);
  });

  it('a receipt with logs and one without give the same keys: logsCount in both', () => {
    const receipt = exampleOf('getTransactionReceipt');
    const keys = simplifiedKeys('getTransactionReceipt', [
      { ...receipt, logs: [] },
      { ...receipt, logs: [LOG, LOG] },
    ]);
    expect(keys[0]).toEqual(keys[1]);
    expect(keys[0]).toContain('logsCount');
    expect(keys[0]).not.toContain('logs');
    expect(keys[0]).not.toContain('logsBloom');
  });

  it('a block with transaction hashes, full transactions or none gives the same keys', () => {
    const block = exampleOf('getBlockByNumber');
    const keys = simplifiedKeys('getBlockByNumber', [
      { ...block, transactions: [] },
      { ...block, transactions: ['0x793497fb459c621d038e62832198967efcad4f83c47bd0fbc6c4d916615d22a3'] },
      { ...block, transactions: [{ hash: '0x79', input: '0x' }] },
    ]);
    expect(keys[1]).toEqual(keys[0]);
    expect(keys[2]).toEqual(keys[0]);
    expect(keys[0]).toContain('transactionsCount');
  });

  it('an entity with or without labelled addresses gives the same keys', () => {
    const entity = exampleOf('getEntity');
    const keys = simplifiedKeys('getEntity', [{ ...entity, addresses: [] }, entity]);
    expect(keys[0]).toEqual(keys[1]);
    expect(keys[0]).toContain('addressesCount');
  });
});
