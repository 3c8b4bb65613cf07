import { describe, expect, it, vi } from 'vitest';
import * as errors from './errors.js';

describe('typed errors', () => {
  it('name themselves and build a message from what the service said', () => {
    const error = new errors.NotFoundError({
      status: 404,
      method: 'GET',
      path: '/entities/x',
      serviceMessage: 'gone',
    });
    expect(error.name).toBe('NotFoundError');
    expect(error.message).toBe('Not found, HTTP 404 for GET /entities/x: gone');
    expect(String(error)).toBe('NotFoundError: Not found, HTTP 404 for GET /entities/x: gone');
  });

  it('show the whole URL called when the base URL is known', () => {
    const error = new errors.TimeoutError(100, {
      method: 'GET',
      path: '/entities/x',
      baseUrl: 'http://127.0.0.1:3000/api/v2.2',
    });
    expect(error.message).toBe('No response within 100 ms (GET http://127.0.0.1:3000/api/v2.2/entities/x)');
  });

  it('serialise to JSON with their details', () => {
    const error = new errors.RateLimitError({ status: 429, method: 'GET', path: '/x', retryAfterMs: 5000 });
    expect(JSON.parse(JSON.stringify(error))).toMatchObject({
      name: 'RateLimitError',
      status: 429,
      retryAfterMs: 5000,
      method: 'GET',
      path: '/x',
    });
  });

  it('keep instanceof working across two copies of the module (an ESM and a CJS build)', async () => {
    vi.resetModules();
    const copy = './errors.js?copy';
    const other = (await import(/* @vite-ignore */ copy)) as typeof errors;
    expect(other.NotFoundError).not.toBe(errors.NotFoundError);
    const fromOther = new other.NotFoundError({ status: 404 });
    expect(fromOther).toBeInstanceOf(errors.NotFoundError);
    expect(fromOther).toBeInstanceOf(errors.ApiError);
    expect(fromOther).toBeInstanceOf(errors.BlockwireError);
    expect(fromOther).not.toBeInstanceOf(errors.ServerError);
    expect(fromOther).not.toBeInstanceOf(errors.ValidationError);
    expect(new errors.ValidationError([])).not.toBeInstanceOf(other.ApiError);
    expect({}).not.toBeInstanceOf(errors.BlockwireError);
    expect(null).not.toBeInstanceOf(errors.BlockwireError);
  });

  it('let other packages subclass with their own kind', () => {
    class SignatureError extends errors.BlockwireError {
      static override readonly kind: string = 'SignatureError';
    }
    const error = new SignatureError('bad signature');
    expect(error).toBeInstanceOf(SignatureError);
    expect(error).toBeInstanceOf(errors.BlockwireError);
    expect(error).not.toBeInstanceOf(errors.ApiError);
    expect(error.name).toBe('SignatureError');
  });

  it('pick the class for a status', () => {
    expect(errors.apiErrorFor({ status: 422 })).toBeInstanceOf(errors.BadRequestError);
    expect(errors.apiErrorFor({ status: 504 })).toBeInstanceOf(errors.ServerError);
    expect(errors.apiErrorFor({ status: 418 }).constructor).toBe(errors.ApiError);
  });
});
