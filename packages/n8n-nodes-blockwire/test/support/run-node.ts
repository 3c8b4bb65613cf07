/**
 * Running the Blockwire action node in a unit test against an emulator, and reading what the
 * emulator saw: the set-up the node tests share.
 */
import type { Emulator } from '@blockwire/emulator';
import type { IDataObject } from 'n8n-workflow';
import { Blockwire } from '../../nodes/Blockwire/Blockwire.node';
import { credentialsFor } from './emulator';
import { executeContext } from './n8n-context';

export interface RunOptions {
  /** How many input items (default 1). */
  count?: number;
  continueOnFail?: boolean;
  /** A key other than the emulator's own (a wrong key). */
  apiKey?: string;
}

const node = new Blockwire();

/** Runs the node once over `count` items with these parameters; the node's first output. */
export async function runNode(
  emulator: Emulator,
  parameters: IDataObject | ((index: number) => IDataObject),
  options: RunOptions = {},
) {
  const { apiKey, ...rest } = options;
  const credentials = { ...credentialsFor(emulator), ...(apiKey ? { apiKey } : {}) };
  const { execute } = executeContext({ parameters, credentials, ...rest });
  const [output] = await node.execute.call(execute);
  return output ?? [];
}

export interface LoggedRequest {
  method: string;
  path: string;
  status: number;
}

/** The HTTP requests the emulator saw on one interface since the last `clearRequestLog`. */
export async function requestsSeen(emulator: Emulator, api: string): Promise<LoggedRequest[]> {
  const response = await fetch(`${emulator.control}/requests?interface=${api}`);
  return ((await response.json()) as { requests: LoggedRequest[] }).requests;
}

/** Empties the emulator's request log. */
export async function clearRequestLog(emulator: Emulator): Promise<void> {
  await fetch(`${emulator.control}/requests`, { method: 'DELETE' });
}
