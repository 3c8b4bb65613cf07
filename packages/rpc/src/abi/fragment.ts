/**
 * Human-readable ABI fragments ("function balanceOf(address) view returns (uint256)", "event
 * Transfer(address indexed from, address indexed to, uint256 value)"), parsed by abitype: the
 * parser viem and ox use, with no dependencies of its own. A fragment that does not parse is a
 * `ValidationError` naming the field it came in.
 */
import { ValidationError } from '@blockwire/core/operations';
import { type AbiEvent, type AbiFunction, type AbiParameter, parseAbiItem } from 'abitype';
import { keccak256Hex } from '../keccak.js';

export type { AbiEvent, AbiFunction, AbiParameter };

function parse(fragment: unknown, field: string, kind: 'function' | 'event', subject: string) {
  const example =
    kind === 'function'
      ? '"function balanceOf(address owner) view returns (uint256)"'
      : '"event Transfer(address indexed from, address indexed to, uint256 value)"';
  const fail = (why: string): never => {
    throw new ValidationError([{ path: field, message: `${why}, e.g. ${example}` }], { subject });
  };
  if (typeof fragment !== 'string' || fragment.trim() === '') return fail(`must be one ${kind} fragment`);
  let item: ReturnType<typeof parseAbiItem>;
  try {
    item = parseAbiItem(fragment.trim() as string);
  } catch (error) {
    const reason = (error as { shortMessage?: string }).shortMessage ?? (error as Error).message;
    return fail(`does not parse as a ${kind} fragment (${reason.replace(/\.$/, '')})`);
  }
  if (item.type !== kind) return fail(`is a ${item.type} fragment; it must be a ${kind}`);
  return item;
}

/** One function fragment, parsed; `field` and `subject` name where it came from in an error. */
export function parseFunction(fragment: unknown, field: string, subject: string): AbiFunction {
  return parse(fragment, field, 'function', subject) as AbiFunction;
}

/** One event fragment, parsed. */
export function parseEvent(fragment: unknown, field: string, subject: string): AbiEvent {
  return parse(fragment, field, 'event', subject) as AbiEvent;
}

/** The canonical type of a parameter, as in a signature: tuples as `(t1,t2)`. */
function canonicalType(param: AbiParameter): string {
  if (!param.type.startsWith('tuple')) return param.type;
  const components = (param as { components?: readonly AbiParameter[] }).components ?? [];
  return `(${components.map(canonicalType).join(',')})${param.type.slice('tuple'.length)}`;
}

/** `name(type1,type2)`: what the selector and the event topic hash. */
export function signatureOf(item: AbiFunction | AbiEvent): string {
  return `${item.name}(${item.inputs.map(canonicalType).join(',')})`;
}

/** The 4-byte selector of a function (0x + 8 hex digits). */
export function selectorOf(item: AbiFunction): string {
  return keccak256Hex(signatureOf(item)).slice(0, 10);
}

/** The first topic of a (non-anonymous) event's logs. */
export function topicOf(item: AbiEvent): string {
  return keccak256Hex(signatureOf(item));
}
