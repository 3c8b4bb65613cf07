import type { ICredentialType, Icon, INodeProperties } from 'n8n-workflow';

/**
 * A PostgreSQL database where the Blockwire Trigger records the deliveries it passed on, so that
 * every n8n process drops the same repeats (queue mode). n8n's own database will do: the trigger
 * uses one table of its own, `blockwire_trigger_deliveries`.
 */
export class BlockwirePostgresApi implements ICredentialType {
  name = 'blockwirePostgresApi';

  displayName = 'Blockwire Repeat Store (PostgreSQL)';

  icon: Icon = { light: 'file:../icons/blockwire.svg', dark: 'file:../icons/blockwire.dark.svg' };

  documentationUrl =
    'https://github.com/blockwire/blockwire/tree/main/packages/n8n-nodes-blockwire-postgres#readme';

  properties: INodeProperties[] = [
    { displayName: 'Host', name: 'host', type: 'string', default: 'localhost', required: true },
    { displayName: 'Port', name: 'port', type: 'number', default: 5432 },
    { displayName: 'Database', name: 'database', type: 'string', default: 'n8n', required: true },
    { displayName: 'User', name: 'user', type: 'string', default: 'postgres', required: true },
    {
      displayName: 'Password',
      name: 'password',
      type: 'string',
      typeOptions: { password: true },
      default: '',
    },
    {
      displayName: 'SSL',
      name: 'ssl',
      type: 'options',
      options: [
        { name: 'Disable', value: 'disable' },
        { name: 'Require', value: 'require', description: 'Encrypt, and check the server certificate' },
        {
          name: 'Require Without Certificate Check',
          value: 'allowUnauthorized',
          description: 'Encrypt, and accept any server certificate',
        },
      ],
      default: 'disable',
    },
  ];
}
