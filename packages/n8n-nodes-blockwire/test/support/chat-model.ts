/* eslint-disable @n8n/community-nodes/no-restricted-imports --
   Test code: runs in vitest, never inside n8n (package.json#files is dist). */
/**
 * A scripted OpenAI-compatible model on 127.0.0.1: it answers the Chat Completions API
 * (`POST /v1/chat/completions`, plain or streamed) with whatever the test's script says for each
 * request — tool calls, or a final answer. n8n's OpenAI Chat Model node talks to it when its
 * credential's Base URL is `url`.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ChatMessage {
  role: string;
  content?: string | null | { type: string; text?: string }[];
  tool_calls?: { id: string; type: 'function'; function: { name: string; arguments: string } }[];
  tool_call_id?: string;
}

export interface ChatCompletionRequest {
  model: string;
  messages: ChatMessage[];
  tools?: { type: 'function'; function: { name: string; description?: string; parameters?: unknown } }[];
  stream?: boolean;
}

/** What the model says in one turn: tool calls, or its final answer. */
export type AssistantTurn =
  | { toolCalls: { name: string; arguments: Record<string, unknown> }[] }
  | { content: string };

export interface ScriptedChatModel {
  /** The base URL to put in the OpenAI credential (ends in /v1). */
  readonly url: string;
  /** Every request, with the Authorization header it came with. */
  readonly requests: { authorization: string | undefined; body: ChatCompletionRequest }[];
  close(): Promise<void>;
}

/** The text of a message, whichever form its content takes. */
export function textOf(message: ChatMessage): string {
  if (typeof message.content === 'string') return message.content;
  return (message.content ?? []).map((part) => part.text ?? '').join('');
}

export async function startScriptedChatModel(
  script: (request: ChatCompletionRequest) => AssistantTurn,
): Promise<ScriptedChatModel> {
  const requests: ScriptedChatModel['requests'] = [];
  let calls = 0;
  const server = createServer(async (req, res) => {
    if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"not found"}}');
      return;
    }
    const body = JSON.parse(await bodyOf(req)) as ChatCompletionRequest;
    requests.push({ authorization: req.headers.authorization, body });
    let turn: AssistantTurn;
    try {
      turn = script(body);
    } catch (error) {
      res
        .writeHead(400, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: { message: String(error), type: 'invalid_request_error' } }));
      return;
    }
    const message = assistantMessage(turn, () => `call_${++calls}`);
    const finish = 'toolCalls' in turn ? 'tool_calls' : 'stop';
    if (body.stream) {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      for (const chunk of streamChunks(body.model, message, finish))
        res.write(`data: ${JSON.stringify(chunk)}\n\n`);
      res.end('data: [DONE]\n\n');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        id: `chatcmpl-${calls}`,
        object: 'chat.completion',
        created: Math.floor(Date.now() / 1000),
        model: body.model,
        choices: [{ index: 0, message, finish_reason: finish }],
        usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

function assistantMessage(turn: AssistantTurn, nextId: () => string): ChatMessage {
  if ('content' in turn) return { role: 'assistant', content: turn.content };
  return {
    role: 'assistant',
    content: null,
    tool_calls: turn.toolCalls.map((call) => ({
      id: nextId(),
      type: 'function',
      function: { name: call.name, arguments: JSON.stringify(call.arguments) },
    })),
  };
}

/** The same message as Chat Completions chunks: the delta, then the finish reason. */
function streamChunks(model: string, message: ChatMessage, finish: string) {
  const base = { id: 'chatcmpl-stream', object: 'chat.completion.chunk', created: 0, model };
  const delta = {
    role: 'assistant',
    content: message.content ?? null,
    ...(message.tool_calls
      ? { tool_calls: message.tool_calls.map((call, index) => ({ index, ...call })) }
      : {}),
  };
  return [
    { ...base, choices: [{ index: 0, delta, finish_reason: null }] },
    { ...base, choices: [{ index: 0, delta: {}, finish_reason: finish }] },
  ];
}

async function bodyOf(req: IncomingMessage): Promise<string> {
  let body = '';
  for await (const chunk of req) body += (chunk as Buffer).toString('utf8');
  return body;
}
