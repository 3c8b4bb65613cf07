import {
  type Client,
  createClientWith,
  DEFAULT_TIMEOUT_MS,
  ValidationError,
} from '@blockwire/core/operations';
import { NodeOperationError } from 'n8n-workflow';
import { callLogHooks } from './call-log';
import { type BlockwireCredentials, baseUrlsOf, CREDENTIAL_TYPE, credentialLabelOf } from './credentials';
import { toNodeError } from './errors';
import { N8N_RUNTIME } from './runtime';
import { n8nTransport, type RequestContext } from './transport';

/**
 * A Blockwire client for this node, sending through n8n (see `n8nTransport`). A bad credential
 * (an empty key, a base URL that is not http(s)) is a `NodeOperationError` naming the field.
 */
export async function blockwireClient(
  context: RequestContext,
): Promise<{ client: Client; credentials: BlockwireCredentials }> {
  const credentials = await context.getCredentials<BlockwireCredentials>(CREDENTIAL_TYPE);
  const apiKey = typeof credentials.apiKey === 'string' ? credentials.apiKey : '';
  try {
    const client = createClientWith(
      {
        apiKey,
        baseUrls: baseUrlsOf(credentials),
        transport: n8nTransport(context, { apiKey, timeoutMs: DEFAULT_TIMEOUT_MS }),
        hooks: callLogHooks(context.logger, context.getNode().name),
      },
      N8N_RUNTIME,
    );
    return { client, credentials };
  } catch (error) {
    if (error instanceof ValidationError) {
      const problems = error.issues.map(
        (issue) => `${credentialLabelOf(issue.path) ?? issue.path} ${issue.message}`,
      );
      throw new NodeOperationError(
        context.getNode(),
        `The Blockwire credentials are not usable: ${problems.join('; ')}`,
        {
          description: 'Open the Blockwire API credentials and correct the field named above.',
        },
      );
    }
    throw toNodeError(context.getNode(), error);
  }
}
