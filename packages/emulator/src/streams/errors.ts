/** A refused request; `status` is the HTTP status the route answers, the message names the field. */
export class StreamsRequestError extends Error {
  override readonly name = 'StreamsRequestError';
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}
