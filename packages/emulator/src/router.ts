/**
 * Routes generated from the operations: the same path templates and zod input schemas the SDK
 * uses, so a request the SDK would reject is rejected here with the same field named.
 */

import { fieldsIn, type Operation } from '@blockwire/core';
import { inputFromRequest, issueMessage, matchPath } from '@blockwire/core/internal';
import * as z from 'zod/v4';
import type { Route } from './handlers/define.js';
import type { HandlerResult } from './handlers/result.js';

export type RouteMatch =
  | { kind: 'route'; route: Route; params: Record<string, string> }
  | { kind: 'wrong-method'; allowed: string[] }
  | { kind: 'none' };

export interface Router {
  readonly routes: readonly Route[];
  match(method: string, path: string): RouteMatch;
  /** Validates the request against the operation's input schema and calls its handler. */
  serve(
    match: Extract<RouteMatch, { kind: 'route' }>,
    request: { query: Record<string, string | string[]>; body: unknown },
  ): Promise<HandlerResult & { input?: Record<string, unknown> }>;
}

export function createRouter(routes: readonly Route[]): Router {
  // Literal segments beat placeholders: /entities/categories is tried before /entities/{entityId}.
  const ordered = [...routes].sort((a, b) => compareSpecificity(a.operation.path, b.operation.path));
  return {
    routes: ordered,
    match(method, path) {
      const allowed: string[] = [];
      for (const route of ordered) {
        const params = matchPath(route.operation, path);
        if (!params) continue;
        if (route.operation.method === method) return { kind: 'route', route, params };
        allowed.push(route.operation.method);
      }
      return allowed.length > 0 ? { kind: 'wrong-method', allowed } : { kind: 'none' };
    },
    async serve({ route, params }, request) {
      const refused = bodyProblem(route.operation, request.body);
      if (refused) return refused;
      const raw = inputFromRequest(route.operation, { params, query: request.query, body: request.body });
      const parsed = z.safeParse(route.operation.input, raw);
      if (!parsed.success) {
        const issues = parsed.error.issues.map((issue) => ({
          field: wireName(route.operation, issue.path.map(String)),
          message: issueMessage(issue),
        }));
        return {
          status: 400,
          body: {
            message: `Invalid request: ${issues.map((i) => (i.field ? `${i.field} ${i.message}` : i.message)).join('; ')}`,
            issues,
          },
        };
      }
      const input = parsed.data as Record<string, unknown>;
      return { ...(await route.serve(input)), input };
    },
  };
}

/**
 * A body the operation cannot take: not a JSON object, or with fields the operation does not have.
 * Reading only the known fields would drop the others without a word, where the SDK refuses them.
 */
function bodyProblem(operation: Operation, body: unknown): HandlerResult | undefined {
  if (body === undefined) return undefined;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return { status: 400, body: { message: 'Invalid request: the body must be a JSON object' } };
  }
  const known = new Set(fieldsIn(operation, 'body').map((placement) => placement.wire));
  const unknown = Object.keys(body).filter((field) => !known.has(field));
  if (unknown.length === 0) return undefined;
  return {
    status: 400,
    body: {
      message: `Invalid request: unknown field(s) ${unknown.join(', ')}`,
      issues: unknown.map((field) => ({ field, message: 'unknown field' })),
    },
  };
}

/** The field as the caller spelled it on the wire (`to_block`, not `toBlock`). */
function wireName(operation: Operation, path: string[]): string {
  const [first, ...rest] = path;
  if (first === undefined) return '';
  const placement = fieldsIn(operation).find((p) => p.field === first);
  return [placement?.wire ?? first, ...rest].join('.');
}

function compareSpecificity(a: string, b: string): number {
  const sa = a.split('/');
  const sb = b.split('/');
  for (let i = 0; i < Math.min(sa.length, sb.length); i++) {
    const pa = sa[i]!.startsWith('{') ? 1 : 0;
    const pb = sb[i]!.startsWith('{') ? 1 : 0;
    if (pa !== pb) return pa - pb;
  }
  return sb.length - sa.length;
}
