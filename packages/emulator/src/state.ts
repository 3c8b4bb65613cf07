/**
 * `--state FILE`: the streams and settings survive a restart. Written atomically (a temporary
 * file renamed over the old one), so a crash mid-write never leaves half a file behind.
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import type { StreamsState } from './streams/state.js';

export function loadState(file: string): StreamsState | undefined {
  if (!existsSync(file)) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new Error(
      `The state file ${file} is not valid JSON (${(error as Error).message}); move it away or fix it.`,
    );
  }
  if (typeof parsed !== 'object' || parsed === null || (parsed as { version?: unknown }).version !== 1) {
    throw new Error(`The state file ${file} is not an emulator state file (expected {"version":1,...}).`);
  }
  return parsed as StreamsState;
}

export function saveState(file: string, state: StreamsState): void {
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(state, null, 2)}\n`);
  renameSync(temporary, file);
}
