import { BlockwireError, type ErrorDetails } from '@blockwire/core/operations';

/** A webhook delivery whose `x-signature` is missing or does not match the body and the secret. */
export class SignatureError extends BlockwireError {
  static override readonly kind: string = 'SignatureError';

  constructor(
    message = 'The webhook signature is missing or does not match the body and secret',
    details: ErrorDetails = {},
  ) {
    super(message, details);
  }
}
