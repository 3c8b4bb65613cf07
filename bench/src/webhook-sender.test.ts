import { describe, expect, it } from 'vitest';
import { listen, readText, sendJson } from './servers.ts';
import { startWebhookSender } from './webhook-sender.ts';

describe('startWebhookSender', () => {
  it('posts a delivery as many times as asked, with its bytes and signature, from another process', async () => {
    const seen: { body: string; signature: unknown }[] = [];
    const server = await listen(async (req, res) => {
      seen.push({ body: await readText(req), signature: req.headers['x-signature'] });
      sendJson(res, 200, Buffer.from('{}'));
    });
    const sender = await startWebhookSender([
      { raw: Buffer.from('{"a":1}'), signature: '0x01' },
      { raw: Buffer.from('{"b":2}'), signature: '0x02' },
    ]);
    try {
      await sender.post({ url: `${server.url}/webhook`, delivery: 1, count: 7, concurrency: 3 });
      expect(seen).toHaveLength(7);
      expect(new Set(seen.map((s) => `${s.body} ${s.signature}`))).toEqual(new Set(['{"b":2} 0x02']));
    } finally {
      await sender.close();
      await server.close();
    }
  });

  it('rejects when the receiver refuses a delivery', async () => {
    const server = await listen((_req, res) => sendJson(res, 401, Buffer.from('{}')));
    const sender = await startWebhookSender([{ raw: Buffer.from('{}'), signature: '0x00' }]);
    try {
      await expect(
        sender.post({ url: `${server.url}/webhook`, delivery: 0, count: 2, concurrency: 1 }),
      ).rejects.toThrow(/status 401/);
    } finally {
      await sender.close();
      await server.close();
    }
  });
});
