import { describe, expect, it } from 'vitest';
import { NODE_ACTIONS } from '../nodes/Blockwire/actions';
import { collectionOf, userFields } from '../nodes/Blockwire/description';
import { readInput } from '../nodes/Blockwire/parameters';
import { collectionOption } from './support/options';

/** readInput as n8n calls it, with the collection exactly as the editor saved it. */
function inputWith(resource: string, operation: string, collection: Record<string, unknown>) {
  const action = NODE_ACTIONS.find(
    (candidate) => candidate.resource === resource && candidate.action === operation,
  );
  if (!action) throw new Error(`no action ${resource}.${operation}`);
  const context = {
    getNode: () => ({ parameters: {} }),
    getNodeParameter: (name: string, _index: number, fallback?: unknown) =>
      name === collectionOf(action) ? collection : fallback,
  } as unknown as Parameters<typeof readInput>[0];
  return readInput(context, action, 0);
}

describe('an optional number the user did not set is not sent (issue 21, point 2)', () => {
  it('To Block, added to Options and left as it is, is not sent (0 would ask for block 0: a 404)', () => {
    const option = collectionOption('tokenPrice', 'getEvm', 'toBlock');
    expect(option.type).toBe('number');
    expect(option.default).not.toBe(0);
    expect(inputWith('tokenPrice', 'getEvm', { toBlock: option.default })).not.toHaveProperty('toBlock');
    // Chain, a top-level dropdown since version 2, comes with its default.
    expect(inputWith('tokenPrice', 'getEvm', { toBlock: 0 })).toEqual({ chain: 'eth', toBlock: 0 });
  });

  it('every optional number without a default of its own starts unset, on every operation', () => {
    for (const action of NODE_ACTIONS) {
      for (const field of userFields(action).filter((f) => f.type === 'number' && !f.required)) {
        const option = collectionOption(action.resource, action.action, field.name);
        const expected = typeof field.default === 'number' ? field.default : '';
        expect(option.default, `${action.resource}.${action.action} ${field.name}`).toBe(expected);
        if (expected === '') {
          const input = inputWith(action.resource, action.action, { [field.name]: option.default });
          // Nothing but the top-level Chain's default (Get EVM Token Price) is sent.
          expect(
            Object.keys(input).filter((name) => name !== 'chain'),
            `${action.resource}.${action.action}`,
          ).toEqual([]);
        }
      }
    }
  });
});

describe('a fixed value is a choice (issue 21, point 5)', () => {
  it('Bitcoin network is a Mainnet dropdown, and reaches the SDK as the list ["mainnet"]', () => {
    for (const operation of ['create', 'update']) {
      const option = collectionOption('bitcoinStream', operation, 'network');
      expect(option).toMatchObject({ type: 'options', default: 'mainnet' });
      expect(option.options).toEqual([{ name: 'Mainnet', value: 'mainnet' }]);
      expect(inputWith('bitcoinStream', operation, { network: option.default })).toEqual({
        network: ['mainnet'],
      });
    }
  });
});
