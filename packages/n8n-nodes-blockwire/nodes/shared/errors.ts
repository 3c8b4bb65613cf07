import {
  ApiError,
  AuthenticationError,
  BlockwireError,
  JsonRpcError,
  NetworkError,
  NotFoundError,
  PermissionError,
  RateLimitError,
  ResponseValidationError,
  TimeoutError,
  ValidationError,
  type ValidationIssue,
} from '@blockwire/core/operations';
import { type INode, type JsonObject, NodeApiError, NodeOperationError } from 'n8n-workflow';

export interface ErrorContext {
  itemIndex?: number;
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
  if (error instanceof ValidationError) {
    const problems = error.issues.map((issue) => describeIssue(issue, context.fieldLabel));
    return new NodeOperationError(node, redact(problems.join('; ')), {
      itemIndex,
      description: 'Nothing was sent to Blockwire. Correct the parameter named above.',
    });
  }
  if (error instanceof BlockwireError) {
    return new NodeApiError(node, safeDetails(error, redact) as JsonObject, {
      message: redact(error.message),
      description: redact(hintFor(error)),
      httpCode: error instanceof ApiError ? String(error.status) : codeOf(error),
      itemIndex,
    });
  }
  const message = error instanceof Error ? error.message : String(error);
  return new NodeOperationError(node, redact(message), { itemIndex });
}

function describeIssue(issue: ValidationIssue, fieldLabel: ErrorContext['fieldLabel']): string {
  if (!issue.path) return issue.message;
  const [head, ...rest] = issue.path.split('.');
  const label = fieldLabel?.(issue.path) ?? (head ? fieldLabel?.(head) : undefined);
  if (!label) return `${issue.path}: ${issue.message}`;
  const position = rest.length > 0 && /^\d+$/.test(rest[0]!) ? ` (entry ${Number(rest[0]) + 1})` : '';
  return `${label}${position}: ${issue.message}`;
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
