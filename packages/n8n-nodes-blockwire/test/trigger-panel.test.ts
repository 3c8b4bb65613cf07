import type { INodeProperties, INodeTypeDescription } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';
import { Blockwire } from '../nodes/Blockwire/Blockwire.node';
import { BlockwireTrigger } from '../nodes/BlockwireTrigger/BlockwireTrigger.node';

const NODES: INodeTypeDescription[] = [new BlockwireTrigger().description, new Blockwire().description];

/** Every label the panel shows: parameter names, option names, nested ones too. */
function labels(properties: readonly INodeProperties[]): string[] {
  return properties.flatMap((property) => [
    property.displayName,
    ...(property.options ?? []).flatMap((option) =>
      'displayName' in option ? labels([option as INodeProperties]) : [String(option.name)],
    ),
  ]);
}

describe('the trigger panel (issue 21, point 10)', () => {
  it('puts the credential picker first: no credential depends on a parameter', () => {
    // n8n's editor shows the picker after the last parameter a credential's displayOptions names
    // (the Repeat Store dropdown once put it below Stages); with none, it comes first.
    for (const node of NODES) {
      for (const credential of node.credentials ?? []) {
        expect(credential.displayOptions, `${node.name}: ${credential.name}`).toBeUndefined();
      }
    }
  });

  it('never shows n8n title-cased as "N8n"', () => {
    for (const node of NODES) {
      const shown = labels(node.properties).filter((label) => /\bN8n\b/.test(label));
      expect(shown, node.name).toEqual([]);
    }
  });
});
