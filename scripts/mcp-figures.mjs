// The figures of packages/mcp/README.md: how many tools, how large tools/list is, and how large
// each tool's largest answer from the emulator is, before (the 0.1.0 result: a summary, the JSON
// as text, and the same JSON again as structuredContent where the tool had an output schema) and
// now (structuredContent once, concise by default, within the answer budget). Sizes are estimated
// tokens: bytes of the result's JSON ÷ 4.
//
//   node scripts/mcp-figures.mjs     prints the table (`pnpm generate` writes it into the README)
import { createServer } from 'node:http';
import { table } from './readme-tables.mjs';

const mcp = () => import('../packages/mcp/dist/index.js');

const tokensOf = (bytes) => Math.ceil(bytes / 4);
const bytesOf = (value) => Buffer.byteLength(JSON.stringify(value));

/** Tool counts and the size of tools/list, all tools and --read-only. */
export async function toolFigures() {
  const { buildTools } = await mcp();
  const list = (tools) => bytesOf({ tools: tools.map((tool) => tool.definition) });
  const all = buildTools();
  const readOnly = buildTools({ readOnly: true });
  return {
    tools: all.length,
    readOnlyTools: readOnly.length,
    listBytes: list(all),
    readOnlyListBytes: list(readOnly),
  };
}

export function toolFiguresText(figures) {
  const { tools, readOnlyTools, listBytes, readOnlyListBytes } = figures;
  return (
    `${tools} tools (${readOnlyTools} with \`--read-only\`); \`tools/list\` answers ` +
    `${listBytes.toLocaleString('en-US')} bytes, about ${tokensOf(listBytes).toLocaleString('en-US')} tokens ` +
    `(${readOnlyListBytes.toLocaleString('en-US')} bytes with \`--read-only\`).`
  );
}

const XPUB =
  'zpub6rFR7y4Q2AijBEqTUquhVz398htDFrtymD9xYYfG1m4wAcvPhXNfE3EfH1r1ADqtfSdVCToUG868RvUUkgDKf31mGDtKsAYz2oz2AGutZYs';

/** The inputs each tool is measured with: its examples, and the largest form of its first. */
function inputsOf(tool) {
  const { action, limits } = tool;
  const inputs = [...action.exampleInputs];
  const largest = { ...action.exampleInputs[0] };
  let grown = false;
  for (const [name, limit] of limits) {
    const value = largest[name];
    if (
      Array.isArray(value) &&
      value.length > 0 &&
      limit.maxItems > value.length &&
      action.chunking?.field === name
    ) {
      largest[name] = Array.from({ length: limit.maxItems }, (_, i) => value[i % value.length]);
      grown = true;
    }
  }
  if (action.readOnly) {
    for (const [name, field] of Object.entries(action.inputSchema.properties ?? {})) {
      if (field.type === 'boolean' && largest[name] !== true) {
        largest[name] = true;
        grown = true;
      }
    }
  }
  if (grown) inputs.push(largest);
  return inputs;
}

/** Per tool, the largest answer in estimated tokens: before, now by default, and now with detail "full". */
export async function measureAnswers() {
  const { startEmulator } = await import('@blockwire/emulator');
  const { createClient } = await import('@blockwire/core');
  const { buildTools, callTool, DEFAULT_ANSWER_TOKENS } = await mcp();
  const key = 'figures-key-0123456789abcdef';
  const emulator = await startEmulator({ apiKey: key });
  const receiver = createServer((request, response) => {
    request.resume();
    request.on('end', () => response.writeHead(200).end());
  });
  await new Promise((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const webhookUrl = `http://127.0.0.1:${receiver.address().port}/hook`;
  try {
    const client = createClient({ apiKey: key, baseUrls: emulator.urls });
    const tools = buildTools();
    const byName = new Map(tools.map((tool) => [tool.definition.name, tool]));
    const call = (name, input, options) => callTool(byName.get(name), client, input, options);
    const live = async (tool, input) => {
      if (tool.action.resource !== 'bitcoinStream' || !('id' in input || 'streamId' in input)) return input;
      const stream = (await call('createBitcoinStream', { webhookUrl })).structuredContent.result;
      await call('addBitcoinStreamAddress', {
        id: stream.id,
        addresses: ['bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu'],
      });
      const xpub = (await call('addBitcoinStreamXpub', { id: stream.id, xpub: XPUB })).structuredContent
        .result;
      const copy = { ...input };
      if ('id' in copy) copy.id = stream.id;
      if ('streamId' in copy) copy.streamId = stream.id;
      if ('xpubId' in copy) copy.xpubId = xpub.id;
      return copy;
    };
    const rows = [];
    for (const tool of tools) {
      const sizes = { before: 0, concise: 0, full: 0 };
      for (const input of inputsOf(tool)) {
        // Each call on a stream of its own: a write (a delete) changes what the next would find.
        const run = async (extra, options) => {
          const result = await call(
            tool.definition.name,
            { ...(await live(tool, input)), ...extra },
            options,
          );
          if (result.isError) throw new Error(`${tool.definition.name}: ${result.content[0].text}`);
          return result;
        };
        const detail = tool.detailed ? { detail: 'full' } : {};
        // No budget: the whole answer, as 0.1.0 sent it.
        const whole = await run(detail, { answerTokens: Number.MAX_SAFE_INTEGER / 4 });
        const answer = whole.structuredContent.result;
        const hadSchema =
          tool.action.output !== undefined &&
          typeof answer === 'object' &&
          answer !== null &&
          !Array.isArray(answer);
        const before = {
          content: [
            { type: 'text', text: `${tool.action.displayName}: done.` },
            { type: 'text', text: JSON.stringify(answer) },
          ],
          ...(hadSchema ? { structuredContent: answer } : {}),
        };
        const concise = await run({});
        const full = tool.detailed ? await run(detail) : concise;
        sizes.before = Math.max(sizes.before, tokensOf(bytesOf(before)));
        sizes.concise = Math.max(sizes.concise, tokensOf(bytesOf(concise)));
        sizes.full = Math.max(sizes.full, tokensOf(bytesOf(full)));
      }
      rows.push({ tool: tool.definition.name, ...sizes });
    }
    return { rows, budget: DEFAULT_ANSWER_TOKENS };
  } finally {
    await emulator.close();
    await new Promise((resolve) => receiver.close(resolve));
  }
}

export function answerTable({ rows }) {
  const n = (value) => value.toLocaleString('en-US');
  return table(
    ['Tool', 'Before (0.1.0)', 'Now, default', 'Now, `detail: "full"`'],
    rows.map((row) => [`\`${row.tool}\``, n(row.before), n(row.concise), n(row.full)]),
  );
}

const FIGURES = /<!-- tool figures -->\n[\s\S]*?<!-- \/tool figures -->/;
const ANSWERS = /<!-- answer sizes -->\n[\s\S]*?<!-- \/answer sizes -->/;

/** The README text with both marked places regenerated. */
export function renderFigures(text, figures, answers) {
  return text
    .replace(FIGURES, () => `<!-- tool figures -->\n${toolFiguresText(figures)}\n<!-- /tool figures -->`)
    .replace(ANSWERS, () => `<!-- answer sizes -->\n${answerTable(answers)}\n<!-- /answer sizes -->`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  process.stdout.write(`${toolFiguresText(await toolFigures())}\n\n${answerTable(await measureAnswers())}\n`);
}
