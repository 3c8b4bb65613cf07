import {
  ApiError,
  AuthenticationError,
  BadRequestError,
  BlockwireError,
  JsonRpcError,
  NetworkError,
  NotFoundError,
  PermissionError,
  RateLimitError,
  ResponseTooLargeError,
  ResponseValidationError,
  ServerError,
  TimeoutError,
  ValidationError,
  type ValidationIssue,
} from '@blockwire/core/operations';
import { type INode, type JsonObject, NodeApiError, NodeOperationError } from 'n8n-workflow';

export interface ErrorContext {
  itemIndex?: number;
  /** How many items the node was given: with more than one, a message names the failed item. */
  itemCount?: number;
  /** The parameter label an SDK input path (`address`, `addresses.3`) stands for. */
  fieldLabel?: (path: string) => string | undefined;
  /** Masks the API key (the SDK already does; this is for errors that did not come from it). */
  redact?: (text: string) => string;
}

type NodeError = NodeApiError | NodeOperationError;

/**
 * The n8n error for any failure of a Blockwire call: bad input is a `NodeOperationError` naming
 * the parameter, anything the service (or the network) did is a `NodeApiError` with the status
 * and a hint. Only fields known to be safe go in: never a URL, header or request object.
 */
export function toNodeError(node: INode, error: unknown, context: ErrorContext = {}): NodeError {
  if (error instanceof NodeApiError || error instanceof NodeOperationError) return error;
  const redact = context.redact ?? ((text: string) => text);
  const itemIndex = context.itemIndex;
  const where = itemIndex !== undefined && (context.itemCount ?? 1) > 1 ? ` in item ${itemIndex}` : '';
  if (error instanceof ValidationError) {
    const problems = error.issues.map((issue) => describeIssue(issue, context.fieldLabel, where));
    return new NodeOperationError(node, redact(problems.join('; ')), {
      itemIndex,
      description: 'Nothing was sent to Blockwire. Correct the parameter named above.',
    });
  }
  if (error instanceof BlockwireError) {
    return new NodeApiError(node, safeDetails(error, redact) as JsonObject, {
      message: redact(`${titleOf(error)}${where}`),
      description: redact(descriptionOf(error)),
      httpCode: error instanceof ApiError ? String(error.status) : codeOf(error),
      itemIndex,
    });
  }
  const message = error instanceof Error ? error.message : String(error);
  return new NodeOperationError(node, redact(message), { itemIndex });
}

/** `Addresses (entry 2) in item 37: …`: the parameter, the entry of a list, the input item. */
function describeIssue(
  issue: ValidationIssue,
  fieldLabel: ErrorContext['fieldLabel'],
  where: string,
): string {
  if (!issue.path) return where ? `Item${where.slice(' in item'.length)}: ${issue.message}` : issue.message;
  const [head, ...rest] = issue.path.split('.');
  const label = fieldLabel?.(issue.path) ?? (head ? fieldLabel?.(head) : undefined);
  if (!label) return `${issue.path}${where}: ${issue.message}`;
  const position = rest.length > 0 && /^\d+$/.test(rest[0]!) ? ` (entry ${Number(rest[0]) + 1})` : '';
  return `${label}${position}${where}: ${issue.message}`;
}

/**
 * The error's title, short enough for n8n's panel: what happened, with the status; never the URL
 * (the SDK's own message has it; it goes to the description and the details).
 */
function titleOf(error: BlockwireError): string {
  if (error instanceof AuthenticationError) return `Blockwire refused the API key (${error.status})`;
  if (error instanceof PermissionError)
    return `Blockwire does not allow this API key to do this (${error.status})`;
  if (error instanceof NotFoundError) return `Not found at Blockwire (${error.status})`;
  if (error instanceof RateLimitError) {
    const wait =
      error.retryAfterMs === undefined ? '' : `: retry after ${Math.ceil(error.retryAfterMs / 1000)} s`;
    return `Rate limited by Blockwire (${error.status})${wait}`;
  }
  if (error instanceof BadRequestError) return `Blockwire refused the request as invalid (${error.status})`;
  if (error instanceof ServerError) return `Blockwire failed to answer (${error.status})`;
  if (error instanceof ApiError) return `Blockwire answered HTTP ${error.status}`;
  if (error instanceof TimeoutError) return `No answer from Blockwire within ${error.timeoutMs} ms`;
  if (error instanceof NetworkError)
    return `Could not reach Blockwire${error.code ? ` (${error.code})` : ''}`;
  if (error instanceof ResponseTooLargeError)
    return `Blockwire's answer is larger than ${error.limitBytes} bytes`;
  if (error instanceof JsonRpcError) return error.message;
  if (error instanceof ResponseValidationError) return 'Blockwire answered in an unexpected shape';
  return error.message;
}

/**
 * What to check, what the service said and which request failed (`GET /erc20/0x…/price`: the
 * path on its interface, key masked), for the description under the title.
 */
function descriptionOf(error: BlockwireError): string {
  const parts = [hintFor(error)];
  if (error instanceof ApiError && error.serviceMessage && !parts[0]!.includes(error.serviceMessage)) {
    parts.push(`Blockwire said: ${error.serviceMessage}`);
  }
  if (error instanceof ResponseValidationError || error instanceof ResponseTooLargeError)
    parts.push(error.message);
  if (error.method && error.path !== undefined) {
    const attempts = error.attempts && error.attempts > 1 ? `, ${error.attempts} attempts` : '';
    parts.push(`Request: ${error.method} ${error.path}${attempts}`);
  }
  if (error instanceof ApiError && error.requestId) parts.push(`Request id: ${error.requestId}`);
  return parts.map((part) => part.replace(/\.?$/, '.')).join(' ');
}

function hintFor(error: BlockwireError): string {
  if (error instanceof AuthenticationError) return 'Check the API Key in the Blockwire credentials.';
  if (error instanceof PermissionError) return 'The API key is valid but not allowed to do this.';
  if (error instanceof NotFoundError) return error.serviceMessage ?? 'Check the id or address you passed.';
  if (error instanceof RateLimitError) {
    return error.retryAfterMs !== undefined
      ? `The service asked to wait ${Math.ceil(error.retryAfterMs / 1000)} s before the next request.`
      : 'Too many requests: slow the workflow down or retry later.';
  }
  if (error instanceof ApiError) {
    return (
      error.serviceMessage ??
      `The service answered HTTP ${error.status} after ${error.attempts ?? 1} attempt(s).`
    );
  }
  if (error instanceof TimeoutError)
    return `No answer within ${error.timeoutMs} ms, ${error.attempts ?? 1} attempt(s).`;
  if (error instanceof NetworkError)
    return 'Check the base URLs in the credentials and the network (proxy, DNS).';
  if (error instanceof JsonRpcError) return `The node answered with JSON-RPC error ${error.code}.`;
  if (error instanceof ResponseValidationError)
    return 'The answer did not have the shape the contract promises.';
  return error.message;
}

function codeOf(error: BlockwireError): string | undefined {
  if (error instanceof NetworkError) return error.code;
  if (error instanceof JsonRpcError) return String(error.code);
  return undefined;
}

function safeDetails(
  error: BlockwireError,
  redact: (text: string) => string,
): Record<string, string | number | null> {
  const details: Record<string, string | number | null> = {
    name: error.name,
    message: error.message,
    operation: error.operation ?? null,
    method: error.method ?? null,
    path: error.path ?? null,
    attempts: error.attempts ?? null,
  };
  if (error instanceof ApiError) {
    details.status = error.status;
    details.serviceMessage = error.serviceMessage ?? null;
  }
  if (error instanceof NetworkError) details.code = error.code ?? null;
  if (error instanceof JsonRpcError) details.code = error.code;
  return Object.fromEntries(
    Object.entries(details).map(([key, value]) => [key, typeof value === 'string' ? redact(value) : value]),
  );
}
