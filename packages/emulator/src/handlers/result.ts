/** What a route handler answers: a status and a JSON body (`undefined`: no body, as for a 204). */
export interface HandlerResult {
  status: number;
  body: unknown;
}

export type Handler = (input: Record<string, unknown>) => HandlerResult | Promise<HandlerResult>;

export function ok(body: unknown): HandlerResult {
  return { status: 200, body };
}

export function notFound(message: string): HandlerResult {
  return { status: 404, body: { message } };
}
