import type { StreamStatus } from './state.js';

/** The status message the service gives each stream status. */
export const STATUS_MESSAGES: Record<StreamStatus, string> = {
  active: 'Stream is active',
  paused: 'Stream is paused',
  error: 'Stream is in error',
  terminated: 'Stream is terminated',
};

/** The timestamps the service writes: ISO 8601, UTC. */
export function now(): string {
  return new Date().toISOString();
}
