import { describe, expect, it } from 'vitest';
import { BlockwireTrigger } from '../nodes/BlockwireTrigger/BlockwireTrigger.node';
import { webhookContext } from './support/n8n-context';
import { bitcoinDelivery, payment, SECRET, signed, txid, WATCHED } from './support/payloads';

const trigger = new BlockwireTrigger();
const credentials = { apiKey: 'key-123', webhookSecret: SECRET };
/** An address an attached xpub derived: the service reported it when the xpub was added. */
const DERIVED = 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu';

async function itemsOf(
  transactions: unknown[],
  stage: 'mempool' | 'in-block',
  watch: { addresses?: string; xpubAddresses?: string[] },
) {
  const payload = bitcoinDelivery(stage, transactions);
  const ctx = webhookContext({
    parameters: {
      mode: 'bitcoin',
      stages: ['mempool', 'in-block', 'confirmed'],
      addresses: watch.addresses ?? '',
    },
    credentials,
    staticData: watch.xpubAddresses ? { xpubAddresses: watch.xpubAddresses } : {},
    ...(await signed(payload)),
  });
  const result = await trigger.webhook.call(ctx.webhook);
  return result.workflowData?.[0]?.map((item) => item.json) ?? [];
}

describe('Blockwire Trigger: what the watched addresses received and sent (issue 21, point 9)', () => {
  it('a mempool payment: the change back to the watched address is received, the spent input sent', async () => {
    const [item] = await itemsOf([payment(txid(1), 'mempool')], 'mempool', { addresses: WATCHED });
    expect(item).toMatchObject({
      valueSats: 248_588,
      receivedSats: 148_588,
      receivedBtc: 0.00148588,
      sentSats: 250_000,
      sentBtc: 0.0025,
    });
  });

  it('in a block, inputs carry no address or value: sent is unknown (null), received is exact', async () => {
    const [item] = await itemsOf([payment(txid(2), 'in-block')], 'in-block', { addresses: WATCHED });
    expect(item).toMatchObject({ receivedSats: 148_588, sentSats: null, sentBtc: null });
  });

  it('addresses an xpub derived count as watched', async () => {
    const tx = payment(txid(3), 'mempool');
    tx.vout[0]!.address = DERIVED;
    const [item] = await itemsOf([tx], 'mempool', { xpubAddresses: [DERIVED] });
    expect(item).toMatchObject({ receivedSats: 100_000, sentSats: 0 });
  });
});
