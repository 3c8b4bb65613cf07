import {
  AuthenticationError,
  JsonRpcError,
  NetworkError,
  NotFoundError,
  RateLimitError,
  ServerError,
  TimeoutError,
  ValidationError,
} from '@blockwire/core';
import { describe, expect, it } from 'vitest';
import { SimulatorError } from './backend.js';
import { DemoError, fieldName, toProblem } from './problems.js';

describe('toProblem', () => {
  it.each([
    [
      new ValidationError([
        { path: 'addresses.3', message: 'must be a base58 address of 32 to 44 characters' },
      ]),
      {
        status: 400,
        field: 'addresses',
        message: 'Address 4 of the list must be a base58 address of 32 to 44 characters.',
      },
    ],
    [
      new RateLimitError({ status: 429, retryAfterMs: 2_500 }),
      {
        status: 429,
        message:
          'The service is rate limiting requests and still refused after the client’s retries. Try again in 3 s.',
      },
    ],
    [
      new NotFoundError({ status: 404, serviceMessage: 'no pools found' }),
      { status: 404, message: 'Nothing found for this token on eth. The service said: No pools found.' },
    ],
    [
      new AuthenticationError({ status: 401 }),
      { status: 502, message: 'The service did not accept the API key. Check BLOCKWIRE_API_KEY.' },
    ],
    [
      new ServerError({ status: 503 }),
      { status: 502, message: 'The service failed (HTTP 503) even after retries. Try again.' },
    ],
    [new TimeoutError(30_000), { status: 504, message: 'The service did not answer within 30 s.' }],
    [
      new NetworkError('connect ECONNREFUSED', { code: 'ECONNREFUSED' }),
      { status: 502, message: 'The service could not be reached. Check the network and the base URLs.' },
    ],
    [
      new JsonRpcError({ code: -32000, message: 'header not found' }),
      { status: 502, message: 'The node refused the call: JSON-RPC error -32000: header not found.' },
    ],
    [
      new SimulatorError('to must be a Bitcoin address'),
      { status: 400, message: 'To must be a Bitcoin address.' },
    ],
    [new DemoError(409, 'The live board is off.'), { status: 409, message: 'The live board is off.' }],
  ])('says %s as a sentence', (error, expected) => {
    const problem = toProblem(error, 'this token on eth');
    expect(problem).toMatchObject(expected);
    expect(problem.message).toMatch(/^[A-Z].*[.!?]$/);
  });

  it('never shows what an unexpected error says (it may hold anything): the terminal has it', () => {
    const problem = toProblem(new Error('ENOENT /home/me/.secret at line 3'));
    expect(problem).toEqual({
      status: 500,
      message: 'Something went wrong in the demo server; its terminal has the details.',
    });
  });
});

describe('fieldName', () => {
  it('names list items by their place, counting from 1', () => {
    expect(fieldName('addresses.0')).toBe('Address 1 of the list');
    expect(fieldName('toBlock')).toBe('The block number');
    expect(fieldName('')).toBe('The input');
    expect(fieldName('somethingElse')).toBe('The field “somethingElse”');
  });
});
