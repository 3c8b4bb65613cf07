import { signBody } from '@blockwire/streams';
import { describe, expect, it } from 'vitest';
import { evmDelivery, WEBHOOK_SECRET } from '../fixtures.ts';
import { makeClient } from './webhook-receivers.ts';

async function deliveries() {
  const payload = evmDelivery(2);
  const raw = Buffer.from(JSON.stringify(payload));
  const signature = await signBody(payload, WEBHOOK_SECRET);
  const forged = `0x${'0'.repeat(64)}`;
  return [
    { raw, signature },
    { raw, signature: forged },
  ];
}

describe.each(['blockwire', 'moralis', 'hand-rolled-native'])('the %s receiver', (name) => {
  it('takes a signed delivery, in process and over HTTP, and refuses a forged one both ways', async () => {
    const receiver = await makeClient(name, { deliveries: await deliveries() });
    try {
      for (const over of ['in process', 'over HTTP'] as const) {
        expect(await receiver.run({ delivery: 0, count: 5, over })).toBeGreaterThan(0);
        await expect(receiver.run({ delivery: 1, count: 1, over })).rejects.toThrow(
          over === 'in process' ? /signature/i : /status 401/,
        );
      }
    } finally {
      await receiver.close();
    }
  });
});
