/** Running an operation on a client: validate the input, build and send the request, check the answer. */
import type * as z from 'zod/v4/core';
import type { AttemptSlots } from './adaptive-concurrency.js';
import type { Api, CallOptions, Client, ClientRequest, ClientResponse, HttpMethod } from './client-types.js';
import { assertClient, resolveCallOptions, validateOperationInput } from './operation-input.js';
import { type BuiltRequest, buildRequest, planOf } from './operation-request.js';
import { checkedAnswer, checkedData } from './operation-response.js';
import type { Operation } from './operation-types.js';
import type { QueryValue } from './query.js';
import { type MappingClient, PLAIN_PATH, REQUEST_MAPPED } from './request-mapped.js';
import { validationOf } from './speed/index.js';
import { maskKeyInValidationError } from './validation.js';

/** Validates the input, sends the request, and validates the response. */
export function runOperation<I extends z.$ZodType, R extends z.$ZodType>(
  client: Client,
  operation: Operation<I, R>,
  input: z.input<I>,
  options?: CallOptions,
): Promise<z.output<R>> {
  // Not an async function: its promise would wrap sendOperation's, a promise and a few
  // microtask turns more on every call. A mistake still rejects, never throws.
  let signal: AbortSignal | undefined;
  let values: Record<string, unknown>;
  try {
    assertClient(client, operation.id);
    // Left out (the usual case): nothing to check, and no empty options object made.
    if (options !== undefined) signal = resolveCallOptions(options, operation.id).signal;
    try {
      values = validateOperationInput(operation, input, validationOf(client));
    } catch (error) {
      throw maskKeyInValidationError(error, client.redact);
    }
  } catch (error) {
    return Promise.reject(error);
  }
  return sendOperation(client, operation, values, signal);
}

/**
 * `runOperation` for input already validated with the operation's schema (a call split into
 * chunks validates the whole input once): builds, sends and validates the response.
 */
export function sendOperation<R extends z.$ZodType>(
  client: Client,
  operation: Operation<z.$ZodType, R>,
  values: Record<string, unknown>,
  signal?: AbortSignal,
  attemptSlots?: AttemptSlots,
): Promise<z.output<R>> {
  // Not an async function: its frame would be kept for as long as the request is in flight.
  // A mistake still rejects, never throws.
  let built: BuiltRequest;
  try {
    built = buildRequest(operation, values);
  } catch (error) {
    return Promise.reject(maskKeyInValidationError(error, client.redact));
  }
  // A client of createClient checks the answer where its attempt settles: one promise for the call.
  const send = (client as Partial<MappingClient>)[REQUEST_MAPPED];
  if (typeof send === 'function') {
    try {
      return send.call<Client, [OperationRequest, typeof checkedAnswer], Promise<unknown>>(
        client,
        new OperationRequest(client, operation, built, signal, attemptSlots),
        checkedAnswer,
      ) as Promise<z.output<R>>;
    } catch (error) {
      return Promise.reject(error);
    }
  }
  let sent: Promise<ClientResponse>;
  try {
    sent = Promise.resolve(
      client.request({
        api: operation.api,
        method: operation.method,
        path: built.path,
        query: built.query,
        body: built.body,
        idempotent: operation.idempotent,
        signal,
        operation: operation.id,
        attemptSlots,
      }),
    );
  } catch (error) {
    return Promise.reject(error);
  }
  const { path } = built;
  return sent.then((response) => checkedData(client, operation, path, response));
}

/** An operation's request as sent to a client of createClient: it also says whose answer it awaits. */
class OperationRequest implements ClientRequest {
  readonly api: Api;
  readonly method: HttpMethod;
  readonly path: string;
  readonly query: Record<string, QueryValue>;
  readonly body: Record<string, unknown> | undefined;
  readonly idempotent: boolean;
  readonly signal: AbortSignal | undefined;
  readonly operation: string;
  readonly attemptSlots: AttemptSlots | undefined;
  readonly client: Client;
  readonly definition: Operation;
  readonly [PLAIN_PATH]: boolean;

  constructor(
    client: Client,
    operation: Operation,
    built: BuiltRequest,
    signal: AbortSignal | undefined,
    attemptSlots: AttemptSlots | undefined,
  ) {
    this.api = operation.api;
    this.method = operation.method;
    this.path = built.path;
    this.query = built.query;
    this.body = built.body;
    this.idempotent = operation.idempotent;
    this.signal = signal;
    this.operation = operation.id;
    this.attemptSlots = attemptSlots;
    this.client = client;
    this.definition = operation;
    this[PLAIN_PATH] = planOf(operation).plainPaths;
  }
}
