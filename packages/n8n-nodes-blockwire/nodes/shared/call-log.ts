import type { ClientHooks, ResponseInfo, RetryInfo } from '@blockwire/core/operations';
import type { Logger } from 'n8n-workflow';

/**
 * What the node's calls did, in n8n's log as its own nodes write it: each HTTP call at debug
 * level (`N8N_LOG_LEVEL=debug`), each retry as a warning (seen at the default level) with why
 * and how long the client waits. The SDK masks the key in every path it hands to a hook.
 */
export function callLogHooks(logger: Logger, nodeName: string): ClientHooks {
  return {
    onResponse(info: ResponseInfo) {
      logger.debug(
        `Blockwire: ${info.method} ${info.path} answered ${info.status} in ${Math.round(info.durationMs)} ms (attempt ${info.attempt})`,
        { node: nodeName, operation: info.operation, status: info.status, attempt: info.attempt },
      );
    },
    onRetry(info: RetryInfo) {
      logger.warn(
        `Blockwire: ${info.method} ${info.path} attempt ${info.attempt} failed (${info.error.message}); retrying in ${(info.delayMs / 1000).toFixed(1)} s`,
        { node: nodeName, operation: info.operation, attempt: info.attempt, delayMs: info.delayMs },
      );
    },
  };
}
