import { BlockwireTrigger } from 'n8n-nodes-blockwire/nodes/BlockwireTrigger/BlockwireTrigger.node.ts';
import { dropRepeats } from 'n8n-nodes-blockwire/nodes/BlockwireTrigger/deliveries.ts';
import type { RepeatStore } from 'n8n-nodes-blockwire/nodes/BlockwireTrigger/repeats.ts';
import type {
  ICredentialsDecrypted,
  ICredentialTestFunctions,
  IExecuteFunctions,
  INodeCredentialTestResult,
  INodeExecutionData,
  INodeTypeDescription,
} from 'n8n-workflow';
import { checkPostgresStore, claimInPostgres, type PostgresRepeatCredentials } from './postgres-repeats';

/** The credential of the PostgreSQL repeat store (credentials/BlockwirePostgresApi.credentials.ts). */
export const REPEAT_STORE_CREDENTIAL = 'blockwirePostgresApi';

/** Each delivery claimed once, atomically, in PostgreSQL: exact however many n8n processes run. */
export const POSTGRES_REPEAT_STORE: RepeatStore = {
  label: 'PostgreSQL',
  async claim(context, keys) {
    const credentials = await context.getCredentials<PostgresRepeatCredentials>(REPEAT_STORE_CREDENTIAL);
    const scope = { workflowId: context.getWorkflow().id ?? '', nodeId: context.getNode().id };
    return await claimInPostgres(credentials, scope, keys);
  },
};

const base = new BlockwireTrigger().description;

/**
 * The Blockwire Trigger of n8n-nodes-blockwire (the same parameters, stream lifecycle and
 * webhook), recording the deliveries it passed on in PostgreSQL instead of n8n's own store, so
 * that queue-mode workers drop the same repeats.
 */
export class BlockwireTriggerPostgres extends BlockwireTrigger {
  override description: INodeTypeDescription = {
    ...base,
    displayName: 'Blockwire Trigger (PostgreSQL)',
    name: 'blockwireTriggerPostgres',
    description: `${base.description}, dropping repeats with a PostgreSQL store shared by every n8n process (queue mode)`,
    defaults: { name: 'Blockwire Trigger (PostgreSQL)' },
    credentials: [
      ...(base.credentials ?? []),
      { name: REPEAT_STORE_CREDENTIAL, required: true, testedBy: 'blockwirePostgresConnection' },
    ],
  };

  methods = {
    credentialTest: {
      async blockwirePostgresConnection(
        this: ICredentialTestFunctions,
        credential: ICredentialsDecrypted,
      ): Promise<INodeCredentialTestResult> {
        try {
          await checkPostgresStore(credential.data as unknown as PostgresRepeatCredentials);
          return { status: 'OK', message: 'Connected; the repeat table is ready' };
        } catch (error) {
          return { status: 'Error', message: (error as Error).message };
        }
      },
    },
  };

  // Runs in the execution a delivery started (a worker, in queue mode), with the webhook's items.
  override async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
    return await dropRepeats.call(this, POSTGRES_REPEAT_STORE);
  }
}
