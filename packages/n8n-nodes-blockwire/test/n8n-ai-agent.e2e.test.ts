/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals --
   Test code: runs in vitest, never inside n8n (package.json#files is dist). */
/**
 * The AI Agent template (templates/ai-agent-price-and-balance.json) in a real n8n (2.41.1): n8n's
 * AI Agent with its OpenAI Chat Model pointed at a scripted OpenAI-compatible model on 127.0.0.1,
 * and the Blockwire node as its two tools, against the emulator. The model asks for both tools
 * from the addresses in the question, then answers quoting what the tools gave it.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createClient } from '@blockwire/core';
import { createRpcClient } from '@blockwire/rpc';
import { skipped } from '@blockwire/testing/skips';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type AssistantTurn,
  type ChatCompletionRequest,
  type ScriptedChatModel,
  startScriptedChatModel,
  textOf,
} from './support/chat-model';
import { useN8nWithEmulator } from './support/n8n';

const WORKFLOW_ID = 'bwAiAgentPrice01';
const CREDENTIAL = { id: 'blockwireAiEmu', name: 'Blockwire (emulator)' };
const OPENAI_CREDENTIAL = { id: 'openAiScripted', name: 'OpenAI (scripted model)' };
/** Made per run, so finding it in n8n's output can only mean n8n printed it. */
const OPENAI_KEY = `sk-test-${randomBytes(12).toString('hex')}`;
const LINK = '0x514910771AF9Ca656af840dff83E8264EcF986CA';
/** A price no fixture has: seen in the answer, it came from this emulator through the tool. */
const LINK_USD = 13.579;

let model: ScriptedChatModel;

interface TemplateNode {
  name: string;
  type: string;
  parameters: Record<string, unknown>;
  credentials?: Record<string, unknown>;
}

/**
 * The template as a user imports it and fills it in: the two credentials, and a question about
 * one of the emulator's funded dev accounts.
 */
function agentWorkflow(wallet: string) {
  const file = join(__dirname, '..', 'templates', 'ai-agent-price-and-balance.json');
  const template = JSON.parse(readFileSync(file, 'utf8')) as { nodes: TemplateNode[] };
  for (const node of template.nodes) {
    node.type = node.type.replace(/^n8n-nodes-blockwire\./, 'CUSTOM.');
    if (node.credentials?.blockwireApi) node.credentials.blockwireApi = CREDENTIAL;
    if (node.credentials?.openAiApi) node.credentials.openAiApi = OPENAI_CREDENTIAL;
    if (node.name === 'Question') {
      const question = `What is LINK (${LINK}) worth on Ethereum, and how much ETH does ${wallet} hold?`;
      (node.parameters.assignments as { assignments: { value: string }[] }).assignments[0]!.value = question;
    }
  }
  return { ...template, id: WORKFLOW_ID, active: false };
}

/** The tool the model is offered whose name matches, by its function name. */
function toolNamed(request: ChatCompletionRequest, pattern: RegExp): string {
  const name = request.tools?.map((tool) => tool.function.name).find((candidate) => pattern.test(candidate));
  if (!name)
    throw new Error(
      `no tool matching ${pattern} among ${JSON.stringify(request.tools?.map((t) => t.function.name))}`,
    );
  return name;
}

/**
 * The model: asked a question, it calls the price tool with the first address in it and the balance
 * tool with the second; given the tools' results, it answers quoting each.
 */
function script(request: ChatCompletionRequest): AssistantTurn {
  const results = request.messages.filter((message) => message.role === 'tool');
  if (results.length > 0) {
    return { content: `From Blockwire:\n${results.map((result) => textOf(result)).join('\n')}` };
  }
  const question = textOf(request.messages.findLast((message) => message.role === 'user')!);
  const [token, wallet] = question.match(/0x[0-9a-fA-F]{40}/g) ?? [];
  return {
    toolCalls: [
      { name: toolNamed(request, /price/i), arguments: { chain: 'eth', address: token } },
      { name: toolNamed(request, /balance/i), arguments: { chain: 'eth', address: wallet } },
    ],
  };
}

// Registered before n8n's set-up: its credential names the model's URL.
beforeAll(async () => {
  model = await startScriptedChatModel(script);
});

afterAll(async () => {
  await model?.close();
});

const n8n = useN8nWithEmulator({
  credential: CREDENTIAL,
  imports: (emulator) => ({
    credentials: [{ ...OPENAI_CREDENTIAL, type: 'openAiApi', data: { apiKey: OPENAI_KEY, url: model.url } }],
    workflows: [agentWorkflow(emulator.chain!.accounts[1]!)],
  }),
});

describe.skipIf(skipped('n8n'))('the AI Agent template in a real n8n', () => {
  it(
    'answers with the price and the balance the Blockwire tools read from the emulator, the keys in no output',
    async () => {
      const { emulator } = n8n;
      const wallet = emulator.chain!.accounts[1]!;
      const priced = await fetch(`${emulator.control}/prices/eth/${LINK}`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ series: [{ usd: LINK_USD }] }),
      });
      expect(priced.status).toBe(200);
      const client = createClient({ apiKey: emulator.apiKey, baseUrls: emulator.urls, retry: false });
      const held = BigInt(await createRpcClient(client, { chain: 'eth' }).getBalance(wallet));
      await client.close();
      await fetch(`${emulator.control}/requests`, { method: 'DELETE' });

      const output = await n8n.execute(WORKFLOW_ID, { secrets: [OPENAI_KEY] });
      const answer = String(output('AI Agent')[0]?.output);

      // Two turns: the tool calls, then the answer; each with the credential's key.
      expect(model.requests).toHaveLength(2);
      for (const request of model.requests) expect(request.authorization).toBe(`Bearer ${OPENAI_KEY}`);
      // The tools ran against the emulator: one price request for LINK, one JSON-RPC balance call.
      const { requests } = (await (await fetch(`${emulator.control}/requests`)).json()) as {
        requests: { interface: string; path: string; operation?: string; status: number }[];
      };
      expect(requests.filter((request) => request.operation === 'getEvmTokenPrice')).toEqual([
        expect.objectContaining({
          status: 200,
          path: expect.stringContaining(`/erc20/${LINK}/price?chain=0x1`),
        }),
      ]);
      expect(requests.filter((request) => request.interface === 'node')).toHaveLength(1);
      // And what they returned reached the answer.
      expect(answer).toContain(`"usdPrice":${LINK_USD}`);
      expect(answer).toContain(`"tokenSymbol":"LINK"`);
      expect(answer).toContain(`"address":"${wallet}"`);
      expect(answer).toMatch(/"balance":"\d+(\.\d+)?"/);
      expect(answer).toContain(`"wei":"${held}"`);
    },
    5 * 60_000,
  );
});
