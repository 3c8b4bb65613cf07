import { describe, expect, it } from 'vitest';
import { webhookUrlProblem } from './webhook-url.js';

describe('webhookUrlProblem', () => {
  it('takes any http(s) URL by default, loopback included', () => {
    for (const url of [
      'http://127.0.0.1:3000/hook',
      'http://localhost/x',
      'https://example.com/h',
      'http://n8n:5678/webhook',
    ]) {
      expect(webhookUrlProblem(url, { requirePublicHttps: false }), url).toBeUndefined();
    }
    expect(webhookUrlProblem('ftp://example.com/', { requirePublicHttps: false })).toMatch(/^webhookUrl/);
    expect(webhookUrlProblem('not a url', { requirePublicHttps: false })).toMatch(/^webhookUrl/);
  });

  it('demands a public HTTPS endpoint when asked to', () => {
    for (const url of [
      'https://example.com/hook',
      'https://8.8.8.8/x',
      'https://[2001:4860:4860::8888]/x',
      'https://[::ffff:8.8.8.8]/x',
    ]) {
      expect(webhookUrlProblem(url, { requirePublicHttps: true }), url).toBeUndefined();
    }
    for (const url of [
      'http://example.com/hook',
      'https://127.0.0.1/x',
      'https://localhost/x',
      'https://10.0.0.1/x',
      'https://172.16.5.4/x',
      'https://192.168.1.1/x',
      'https://169.254.169.254/x',
      'https://100.64.0.1/x',
      'https://[::1]/x',
      'https://[fd00::1]/x',
      'https://[::ffff:127.0.0.1]/x',
      'https://intranet/x',
      'https://printer.local/x',
    ]) {
      expect(webhookUrlProblem(url, { requirePublicHttps: true }), url).toMatch(
        /^webhookUrl must be a public HTTPS endpoint/,
      );
    }
  });
});
