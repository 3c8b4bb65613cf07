/** What a route answers: a status and a JSON body (`undefined`: no body, as for a 204). */
export interface HandlerResult {
  status: number;
  body: unknown;
}
