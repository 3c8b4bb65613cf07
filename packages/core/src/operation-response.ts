/** Checking an operation's 2xx answer with its response schema, and what an error says of the call. */
import type * as z from 'zod/v4/core';
import type { Api, Client, ClientResponse } from './client-types.js';
import type { Operation } from './operation-types.js';
import { type ValidationPaths, validationOf } from './speed/index.js';
import { validateResponse } from './validation.js';

/** What an answer is checked against: the call's client, operation and path. */
export interface AnsweredRequest {
  readonly client: Client;
  readonly definition: Operation;
  readonly path: string;
}

export function checkedAnswer(response: ClientResponse, req: AnsweredRequest): unknown {
  return checkedData(req.client, req.definition, req.path, response);
}

/** The data of a 2xx answer, validated with the operation's response schema. */
export function checkedData<R extends z.$ZodType>(
  client: Client,
  operation: Operation<z.$ZodType, R>,
  path: string,
  response: ClientResponse,
): z.output<R> {
  // The usual answer passes as it is: the closure for an error's details is not even made.
  const paths = validationOf(client);
  if (paths.passesUnchanged(operation.response, response.data)) return response.data as z.output<R>;
  return validatedData(client, operation, path, response, paths);
}

function validatedData<R extends z.$ZodType>(
  client: Client,
  operation: Operation<z.$ZodType, R>,
  path: string,
  response: ClientResponse,
  paths: ValidationPaths,
): z.output<R> {
  // Only an error says where the call went: worked out then, not on every call.
  return validateResponse(
    operation.response,
    response.data,
    () => ({
      operation: operation.id,
      method: operation.method,
      path: client.redact(path),
      baseUrl: shownBaseUrl(client, operation.api),
      attempts: response.attempts,
      // A 2xx whose body cannot be read: a create happened, but what it made is not known.
      outcomeUnknown: !operation.idempotent,
    }),
    paths,
  );
}

/** The base URL an operation is sent to, key masked (a client of one's own may not say). */
function shownBaseUrl(client: Client, api: Api): string | undefined {
  const baseUrl = (client.baseUrls as Partial<Record<Api, string>> | undefined)?.[api];
  return baseUrl === undefined ? undefined : client.redact(baseUrl);
}
