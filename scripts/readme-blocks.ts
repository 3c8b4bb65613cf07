/**
 * Reads the code blocks of a README and what their source says about running them.
 *
 * A block runs as a program unless an HTML comment right above it says otherwise:
 *
 *   <!-- not run: why -->              not a program (an install command, a signature, output)
 *   <!-- name: rpc-client -->          runs, and other blocks may run after it
 *   <!-- runs after: rpc-client -->    runs appended to the named block (a fragment using its names)
 *   <!-- runs as: webhook receiver --> a server on $PORT that receives a stream's deliveries
 *   <!-- recipe: fastify -->           a receiver for one framework or runtime, run by
 *                                      scripts/consumers in a project with that stack installed
 *
 * A block in a language that cannot run, without `not run`, is an error: nothing is skipped silently.
 */
import { formatWithOptions } from 'node:util';
import { runInNewContext } from 'node:vm';

export type Language = 'ts' | 'js' | 'sh';
export type Marker =
  | { kind: 'not run'; reason: string }
  | { kind: 'name'; name: string }
  | { kind: 'runs after'; name: string }
  | { kind: 'runs as'; role: 'webhook receiver' }
  | { kind: 'recipe'; name: string };

export interface CodeBlock {
  /** 1-based line of the opening fence. */
  line: number;
  /** The fence's info string as written (`ts`, `sh`, `json`, ``). */
  info: string;
  language: Language | undefined;
  code: string;
  marker: Marker | undefined;
}

const LANGUAGES: Record<string, Language> = {
  ts: 'ts',
  typescript: 'ts',
  js: 'js',
  javascript: 'js',
  mjs: 'js',
  sh: 'sh',
  bash: 'sh',
  shell: 'sh',
};

const MARKER = /^<!--\s*(not run|name|runs after|runs as|recipe):\s*(.*?)\s*-->$/;

export function parseMarker(comment: string): Marker | undefined {
  const match = MARKER.exec(comment.trim());
  if (!match) return undefined;
  const [, kind, value] = match as unknown as [string, Marker['kind'], string];
  if (value === '') throw new Error(`"${comment.trim()}" needs a value after the colon`);
  switch (kind) {
    case 'not run':
      return { kind, reason: value };
    case 'name':
    case 'runs after':
    case 'recipe':
      if (!/^[a-z0-9-]+$/.test(value))
        throw new Error(`"${comment.trim()}": a name is lowercase words with dashes`);
      return { kind, name: value };
    case 'runs as':
      if (value !== 'webhook receiver')
        throw new Error(`"${comment.trim()}": the only role is "webhook receiver"`);
      return { kind, role: value };
  }
}

/** Every fenced code block of a Markdown text, with the marker above it. */
export function codeBlocks(markdown: string): CodeBlock[] {
  const lines = markdown.split('\n');
  const blocks: CodeBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)(`{3,}|~{3,})\s*([^`\s]*)(.*)$/.exec(lines[i]!);
    if (!open) continue;
    const [, indent, fence, info] = open as unknown as [string, string, string, string];
    const body: string[] = [];
    let j = i + 1;
    const close = new RegExp(`^\\s*${fence[0] === '`' ? '`' : '~'}{${fence.length},}\\s*$`);
    for (; j < lines.length && !close.test(lines[j]!); j++) body.push(lines[j]!.slice(indent.length));
    if (j >= lines.length) throw new Error(`line ${i + 1}: a code block is never closed`);
    blocks.push({
      line: i + 1,
      info,
      language: LANGUAGES[info.toLowerCase()],
      code: `${body.join('\n')}\n`,
      marker: markerAbove(lines, i),
    });
    i = j;
  }
  return blocks;

  function markerAbove(all: string[], fenceIndex: number): Marker | undefined {
    let k = fenceIndex - 1;
    while (k >= 0 && all[k]!.trim() === '') k--;
    const found: Marker[] = [];
    while (k >= 0 && /^\s*<!--.*-->\s*$/.test(all[k]!)) {
      const marker = parseMarker(all[k]!);
      if (marker) found.push(marker);
      k--;
    }
    if (found.length > 1)
      throw new Error(`line ${fenceIndex + 1}: one marker per block, found ${found.length}`);
    return found[0];
  }
}

export interface Program {
  readme: string;
  block: CodeBlock;
  language: Language;
  /** The program as run: the block, after the block it runs after. */
  source: string;
  receiver: boolean;
}

/** The programs of a README, or the reasons it breaks the marking rules. */
export function programsOf(
  readme: string,
  markdown: string,
): { blocks: CodeBlock[]; examples: Program[]; problems: string[] } {
  const blocks = codeBlocks(markdown);
  const named = new Map<string, CodeBlock>();
  const examples: Program[] = [];
  const problems: string[] = [];
  for (const block of blocks) {
    if (block.marker?.kind !== 'name') continue;
    if (named.has(block.marker.name))
      problems.push(`${readme}:${block.line}: a second block named "${block.marker.name}"`);
    named.set(block.marker.name, block);
  }
  for (const block of blocks) {
    const where = `${readme}:${block.line}`;
    const { marker, language } = block;
    // Recipes need their framework installed: scripts/consumers runs them (see recipesOf).
    if (marker?.kind === 'not run' || marker?.kind === 'recipe') continue;
    if (!language) {
      problems.push(
        `${where}: a \`${block.info || 'plain'}\` block cannot run; mark it <!-- not run: why -->`,
      );
      continue;
    }
    let source = block.code;
    if (marker?.kind === 'runs after') {
      const before = named.get(marker.name);
      if (!before) {
        problems.push(`${where}: runs after "${marker.name}", which no block of ${readme} is named`);
        continue;
      }
      if (before.language !== language) problems.push(`${where}: runs after a block in another language`);
      source = `${before.code}\n${block.code}`;
    }
    const receiver = marker?.kind === 'runs as';
    if (receiver && language === 'sh') problems.push(`${where}: a webhook receiver is a TS or JS program`);
    examples.push({ readme, block, language, source, receiver });
  }
  return { blocks, examples, problems };
}

/** The recipe blocks of a README by name; a name used twice is an error. */
export function recipesOf(markdown: string): Map<string, CodeBlock> {
  const recipes = new Map<string, CodeBlock>();
  for (const block of codeBlocks(markdown)) {
    if (block.marker?.kind !== 'recipe') continue;
    if (recipes.has(block.marker.name))
      throw new Error(`line ${block.line}: a second recipe "${block.marker.name}"`);
    recipes.set(block.marker.name, block);
  }
  return recipes;
}

/**
 * What a block claims it prints: `console.log(x); // 'a' 1n` claims the line `a 1`. Only a
 * comment made of literals (strings, numbers, bigints, booleans, null, arrays and objects of
 * them, several separated by spaces) is a claim; ` — ` starts prose after it. Other comments are prose.
 */
export function printedClaims(code: string): string[] {
  const claims: string[] = [];
  for (const line of code.split('\n')) {
    const match = /^\s*console\.log\(.*\);\s*\/\/\s*(.+)$/.exec(line);
    if (!match) continue;
    const values = literals(match[1]!.split(' — ')[0]!.trim());
    if (values) claims.push(formatWithOptions({ colors: false }, ...values));
  }
  return claims;
}

/** Whether `claims` appear in `output` in order, each as whole lines. */
export function missingClaim(output: string, claims: string[]): string | undefined {
  let from = 0;
  const text = `\n${output}`;
  for (const claim of claims) {
    const at = text.indexOf(`\n${claim}\n`, from);
    if (at === -1) return claim;
    from = at + claim.length + 1;
  }
  return undefined;
}

function literals(text: string): unknown[] | undefined {
  const pieces = splitTopLevel(text);
  if (!pieces) return undefined;
  const values: unknown[] = [];
  for (const piece of pieces) {
    if (!isLiteral(piece)) return undefined;
    try {
      values.push(runInNewContext(`(${piece})`, Object.create(null), { timeout: 100 }));
    } catch {
      return undefined;
    }
  }
  return values;
}

/** Splits at spaces outside quotes and brackets; undefined when quotes or brackets do not balance. */
function splitTopLevel(text: string): string[] | undefined {
  const pieces: string[] = [];
  let depth = 0;
  let quote = '';
  let current = '';
  for (const char of text) {
    if (quote) {
      if (char === quote) quote = '';
    } else if (char === "'" || char === '"') quote = char;
    else if (char === '[' || char === '{') depth++;
    else if (char === ']' || char === '}') depth--;
    if (depth < 0) return undefined;
    if (!quote && depth === 0 && char === ' ') {
      if (current) pieces.push(current);
      current = '';
    } else current += char;
  }
  if (quote || depth !== 0) return undefined;
  if (current) pieces.push(current);
  return pieces.length > 0 ? pieces : undefined;
}

const STRING = /'[^'\\\n]*'|"[^"\\\n]*"/g;
const KEY = /[A-Za-z_$][\w$]*\s*:/g;
const TOKENS =
  /^(?:[\s{}[\],:]|-?\d[\d_]*(?:\.\d+)?(?:e[+-]?\d+)?n?|true|false|null|undefined|NaN|Infinity|"")*$/;

function isLiteral(piece: string): boolean {
  return TOKENS.test(piece.replace(STRING, '""').replace(KEY, ','));
}
