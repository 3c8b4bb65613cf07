import { describe, expect, it } from 'vitest';
import { checkFrame, idFromPrefix } from './frames.js';

const refusal = (text: string) => {
  const checked = checkFrame(text);
  return 'refused' in checked ? checked.refused : undefined;
};

describe('checkFrame', () => {
  it('passes requests, notifications and responses', () => {
    expect(refusal('{"jsonrpc":"2.0","id":1,"method":"tools/list"}')).toBeUndefined();
    expect(refusal('{"jsonrpc":"2.0","method":"notifications/initialized"}')).toBeUndefined();
    expect(refusal('{"jsonrpc":"2.0","id":"a","result":{}}')).toBeUndefined();
  });

  it.each([
    ['{', -32700, null, /^Parse error: the message is not JSON/],
    ['[]', -32600, null, /batch \(JSON array\) is not accepted/],
    ['"ping"', -32600, null, /must be a JSON object, got a string/],
    ['{"id":1,"method":"ping"}', -32600, 1, /jsonrpc must be "2.0", got nothing/],
    [
      '{"jsonrpc":"2.0","id":1.5,"method":"ping"}',
      -32600,
      null,
      /id must be a string or an integer, got 1.5/,
    ],
    ['{"jsonrpc":"2.0","id":2,"method":7}', -32600, 2, /method must be a string, got 7/],
    ['{"jsonrpc":"2.0","id":3,"method":"tools/call","params":"x"}', -32600, 3, /params must be an object/],
    [
      '{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"a","arguments":5}}',
      -32602,
      4,
      /^Invalid params of tools\/call: params\.arguments: expected record, received number\.$/,
    ],
    [
      '{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"arguments":{}}}',
      -32602,
      5,
      /params\.name: expected string, received undefined/,
    ],
  ])('%s → %i', (text, code, id, message) => {
    expect(refusal(text)).toEqual({
      jsonrpc: '2.0',
      id,
      error: { code, message: expect.stringMatching(message) },
    });
  });
});

describe('idFromPrefix', () => {
  it('reads the top-level id from the start of a frame cut short', () => {
    expect(
      idFromPrefix('{"jsonrpc":"2.0","id":42,"method":"tools/call","params":{"arguments":{"q":"aaaa'),
    ).toBe(42);
    expect(idFromPrefix('{ "method": "x", "id" : "big-1", "params": {"q":"aaa')).toBe('big-1');
  });

  it('takes no id from inside params, from a string value, or from a cut-off id', () => {
    expect(idFromPrefix('{"jsonrpc":"2.0","params":{"id":7,"q":"aaaa')).toBeNull();
    expect(idFromPrefix('{"method":"\\"id\\":9","params":{"q":"aa')).toBeNull();
    expect(idFromPrefix('{"jsonrpc":"2.0","id":12')).toBeNull();
  });
});
