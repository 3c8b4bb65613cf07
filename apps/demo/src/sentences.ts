/**
 * Input mistakes as sentences about the field at fault ("The address must be …"). Used by the
 * server for its 400 answers and, bundled, by the page before it sends anything (page-checks.ts),
 * so both word a mistake alike. Browser-safe: no Node module.
 */
import type { ValidationError, ValidationIssue } from '@blockwire/core';

/** What each input field is called on the page, by its path in an SDK input. */
export const FIELD_NAMES: Record<string, string> = {
  address: 'The address',
  chain: 'The chain',
  toBlock: 'The block number',
  addresses: 'The address list',
  query: 'The search text',
  entityId: 'The entity id',
  categoryId: 'The category id',
  blockTag: 'The block number',
  amountBtc: 'The amount',
  to: 'The address',
  blocks: 'The number of blocks',
  number: 'The block number',
  page: 'The page number',
  id: 'The id',
  network: 'The network',
  enabled: 'The choice',
};

export function fieldName(path: string): string {
  const [head, index] = path.split('.');
  if (head === 'addresses' && index !== undefined && /^\d+$/.test(index)) {
    return `Address ${Number(index) + 1} of the list`;
  }
  return FIELD_NAMES[head ?? ''] ?? (path ? `The field “${path}”` : 'The input');
}

export function sentence(text: string): string {
  const trimmed = text.trim();
  const capital = trimmed.charAt(0).toUpperCase() + trimmed.slice(1);
  return /[.!?]$/.test(capital) ? capital : `${capital}.`;
}

/** How a message that reads on after a field's name begins ("The address must be …"). */
const PREDICATE = /^(must|is|are|has|have|contains|cannot|does|do|was|were)\b/;

/**
 * One issue as a sentence about its field. Messages of the SDK and of zod do not all read on
 * after a name ("unknown chain …", "Too big: …"): those follow "is not valid:".
 */
export function issueSentence(issue: ValidationIssue): string {
  const message = issue.message.trim();
  const field = fieldName(issue.path);
  if (PREDICATE.test(message)) return sentence(`${field} ${message}`);
  if (message.startsWith('unknown field')) return sentence(`${field} has ${message}`);
  const lower = /^[A-Z][a-z]/.test(message) ? message.charAt(0).toLowerCase() + message.slice(1) : message;
  return sentence(`${field} is not valid: ${lower}`);
}

export function describeIssues(issues: readonly ValidationIssue[]): string {
  return issues.slice(0, 3).map(issueSentence).join(' ');
}

/** A validation error as the page shows it: the first three issues, and the field of the first. */
export function validationProblem(error: ValidationError): { message: string; field?: string } {
  const field = error.issues[0]?.path.split('.')[0];
  return { message: describeIssues(error.issues), ...(field ? { field } : {}) };
}
