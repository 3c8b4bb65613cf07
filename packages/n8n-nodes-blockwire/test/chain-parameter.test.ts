import { type IDataObject, type INodeProperties, NodeHelpers, NodeOperationError } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';
import { Blockwire } from '../nodes/Blockwire/Blockwire.node';
import { CHAIN_TOP_LEVEL_SINCE } from '../nodes/Blockwire/description';
import { credentialsFor, useEmulator } from './support/emulator';
import { executeContext, type SentRequest } from './support/n8n-context';

const description = new Blockwire().description;
const USDC = '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48';
/** USDC on Polygon, which the emulator prices there. */
const POLYGON_USDC = '0x3c499c542cef5e3811e1192ce70d8cc03d5c3359';
const t = useEmulator();

/** The parameters n8n resolves for a saved node of a version: defaults filled in, as its Workflow does. */
function resolved(saved: IDataObject, typeVersion: number): IDataObject {
  return NodeHelpers.getNodeParameters(
    description.properties,
    saved as never,
    true,
    false,
    { typeVersion },
    description,
  ) as IDataObject;
}

/** The top-level parameters n8n shows for these values in a version of the node. */
function shown(values: IDataObject, typeVersion: number): INodeProperties[] {
  const node = { typeVersion } as never;
  return description.properties.filter((property) =>
    NodeHelpers.displayParameter(values as never, property, node, description),
  );
}

/** Runs the node on n8n's resolved parameters and returns the chain each price request asked for. */
async function chainsAsked(saved: IDataObject, typeVersion: number): Promise<(string | null)[]> {
  const sent: SentRequest[] = [];
  const parameters = resolved(saved, typeVersion);
  const { execute } = executeContext({
    parameters,
    credentials: credentialsFor(t.emulator),
    sent,
    typeVersion,
  });
  const [output] = await new Blockwire().execute.call(execute);
  expect(output?.[0]?.json.usdPrice).toBeTypeOf('number');
  return sent.map((request) => new URL(request.options.url).searchParams.get('chain'));
}

describe('Chain of Get EVM Token Price: a top-level dropdown set to Ethereum', () => {
  const getEvm = { resource: 'tokenPrice', operation: 'getEvm' };

  it('new nodes (the latest version) show Chain beside Address, set to "Ethereum (0x1)", and not under Options', () => {
    const latest = Math.max(...(description.version as number[]));
    expect(latest).toBeGreaterThanOrEqual(CHAIN_TOP_LEVEL_SINCE);
    const values = resolved(getEvm, latest);
    expect(values.chain).toBe('eth');
    const own = shown(values, latest);
    const chain = own.find((property) => property.name === 'chain');
    expect(chain).toMatchObject({ type: 'options', default: 'eth', displayName: 'Chain' });
    const options = chain?.options as { name: string; value: string }[];
    expect(options.find((option) => option.value === 'eth')?.name).toBe('Ethereum (0x1)');
    const collection = own.find((property) => property.name === 'options');
    const inCollection = ((collection?.options ?? []) as INodeProperties[]).filter((option) =>
      NodeHelpers.displayParameter({} as never, option, { typeVersion: latest } as never, description),
    );
    expect(inCollection.map((option) => option.name)).not.toContain('chain');
  });

  it('every action whose SDK input picks an EVM chain gets the same dropdown (none written per operation)', () => {
    const chains = description.properties.filter(
      (property) => property.name === 'chain' && property.displayOptions?.show?.operation,
    );
    expect(chains.map((property) => property.displayOptions?.show?.operation)).toEqual([['getEvm']]);
  });

  it('a new node prices on Ethereum unless Chain says otherwise', async () => {
    expect(await chainsAsked({ ...getEvm, address: USDC }, 2)).toEqual(['0x1']);
    expect(await chainsAsked({ ...getEvm, address: POLYGON_USDC, chain: 'polygon' }, 2)).toEqual(['0x89']);
  });

  it('a workflow saved with version 1 keeps its Options → Chain, shown and used as before', async () => {
    const saved = { ...getEvm, address: POLYGON_USDC, options: { chain: 'polygon' } };
    const own = shown(resolved(saved, 1), 1);
    expect(own.map((property) => property.name)).not.toContain('chain');
    const collection = own.find((property) => property.name === 'options');
    const chainOption = ((collection?.options ?? []) as INodeProperties[]).find(
      (option) => option.name === 'chain',
    );
    expect(
      NodeHelpers.displayParameter({} as never, chainOption!, { typeVersion: 1 } as never, description),
    ).toBe(true);
    expect(await chainsAsked(saved, 1)).toEqual(['0x89']);
    // Left out in version 1: the service's default (Ethereum), as before.
    expect(await chainsAsked({ ...getEvm, address: USDC }, 1)).toEqual([null]);
  });
});

describe('an unknown chain is answered with the names the dropdown shows', () => {
  async function chainError(chain: string, resource = 'tokenPrice', operation = 'getEvm') {
    const sent: SentRequest[] = [];
    const { execute } = executeContext({
      parameters: { resource, operation, address: USDC, chain },
      credentials: credentialsFor(t.emulator),
      sent,
    });
    const error = await new Blockwire().execute.call(execute).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NodeOperationError);
    expect(sent).toEqual([]); // refused before anything is sent
    return (error as Error).message;
  }

  it('a typo: "did you mean" the nearest dropdown name, not the 32 short codes', async () => {
    const message = await chainError('etherum');
    expect(message).toBe(
      'Chain: unknown chain "etherum" (did you mean "Ethereum (0x1)"?); pick one from the Chain list or give its chain ID (0x89 or 137)',
    );
    expect(message).not.toContain('polygon (0x89)');
  });

  it('by a prefix, a common name or the words the dropdown uses', async () => {
    expect(await chainError('arbitrum one')).toContain('did you mean "Arbitrum (0xa4b1)"?');
    expect(await chainError('matic')).toContain('did you mean "Polygon (0x89)"?');
    expect(await chainError('bnb smart chian')).toContain('did you mean "BNB Smart Chain (0x38)"?');
    expect(await chainError('zzzz')).toMatch(/^Chain: unknown chain "zzzz"; pick one from the Chain list/);
  });

  it('the JSON-RPC Chain too, where it is not a path segment', async () => {
    expect(await chainError('Etherum!', 'rpc', 'getBlockNumber')).toContain('did you mean "Ethereum (0x1)"?');
  });
});
