import { describe, expect, it } from 'vitest';
import {
  codeBlocks,
  missingClaim,
  parseMarker,
  printedClaims,
  programsOf,
  recipesOf,
} from './readme-blocks.js';

const fence = '```';

describe('codeBlocks', () => {
  it('reads each fenced block with its language, line and the marker above it', () => {
    const markdown = [
      '# Title',
      '',
      '<!-- not run: installs from the registry -->',
      '',
      `${fence}sh`,
      'npm install x',
      fence,
      '',
      '- a list item:',
      '',
      `  ${fence}ts`,
      '  console.log(1);',
      `  ${fence}`,
      '',
      '~~~json',
      '{}',
      '~~~',
    ].join('\n');
    expect(codeBlocks(markdown)).toEqual([
      {
        line: 5,
        info: 'sh',
        language: 'sh',
        code: 'npm install x\n',
        marker: { kind: 'not run', reason: 'installs from the registry' },
      },
      { line: 11, info: 'ts', language: 'ts', code: 'console.log(1);\n', marker: undefined },
      { line: 15, info: 'json', language: undefined, code: '{}\n', marker: undefined },
    ]);
  });

  it('refuses an unclosed block, two markers on one block and a marker without a value', () => {
    expect(() => codeBlocks(`${fence}ts\nconsole.log(1);\n`)).toThrow(/never closed/);
    expect(() => codeBlocks(`<!-- name: a -->\n<!-- not run: b -->\n${fence}ts\n${fence}\n`)).toThrow(
      /one marker/,
    );
    expect(() => parseMarker('<!-- not run: -->')).toThrow(/needs a value/);
    expect(() => parseMarker('<!-- runs as: server -->')).toThrow(/webhook receiver/);
    expect(parseMarker('<!-- just a comment -->')).toBeUndefined();
  });
});

describe('programsOf', () => {
  it('fails every block it would not run unless marked, and runs a fragment after the block it names', () => {
    const markdown = [
      `${fence}json`,
      '{}',
      fence,
      `${fence}`,
      'plain',
      fence,
      '<!-- not run: a sample answer -->',
      `${fence}json`,
      '{}',
      fence,
      '<!-- name: setup -->',
      `${fence}ts`,
      'const a = 1;',
      fence,
      '<!-- runs after: setup -->',
      `${fence}ts`,
      'console.log(a);',
      fence,
      '<!-- runs after: nowhere -->',
      `${fence}ts`,
      'console.log(b);',
      fence,
      '<!-- runs as: webhook receiver -->',
      `${fence}sh`,
      'nc -l 3000',
      fence,
    ].join('\n');
    const { examples, problems } = programsOf('X.md', markdown);
    expect(problems).toEqual([
      'X.md:1: a `json` block cannot run; mark it <!-- not run: why -->',
      'X.md:4: a `plain` block cannot run; mark it <!-- not run: why -->',
      'X.md:20: runs after "nowhere", which no block of X.md is named',
      'X.md:24: a webhook receiver is a TS or JS program',
    ]);
    expect(examples.map((example) => example.source)).toEqual([
      'const a = 1;\n',
      'const a = 1;\n\nconsole.log(a);\n',
      'nc -l 3000\n',
    ]);
  });

  it('refuses two blocks of one name', () => {
    const block = `<!-- name: a -->\n${fence}ts\n${fence}\n`;
    expect(programsOf('X.md', block + block).problems).toEqual(['X.md:5: a second block named "a"']);
  });
});

describe('recipesOf', () => {
  it('gives the recipes by name, which programsOf leaves to the consumer projects', () => {
    const markdown = `<!-- recipe: fastify -->\n${fence}js\nfastify();\n${fence}\n<!-- recipe: koa -->\n${fence}js\nkoa();\n${fence}\n`;
    expect([...recipesOf(markdown)].map(([name, block]) => [name, block.code])).toEqual([
      ['fastify', 'fastify();\n'],
      ['koa', 'koa();\n'],
    ]);
    expect(programsOf('X.md', markdown)).toMatchObject({ examples: [], problems: [] });
    expect(() => recipesOf(markdown + markdown)).toThrow(/second recipe "fastify"/);
    expect(() => parseMarker('<!-- recipe: Fastify 5 -->')).toThrow(/lowercase/);
  });
});

describe('printedClaims', () => {
  it('turns a comment of literals after console.log into the line it prints', () => {
    const code = [
      'console.log(a); // true',
      "console.log(a); // 'p2wpkh'",
      "console.log(a, b); // '0.00000001' '1'",
      'console.log(a, b, c); // 1n 1n 2100000000000000n',
      "console.log(a); // { name: 'bsc testnet', hexId: '0x61' }",
      'console.log(a); // [] — the in-block delivery came late',
      "console.log(a); // [ [ null, 'mempool' ] ]",
    ].join('\n');
    expect(printedClaims(code)).toEqual([
      'true',
      'p2wpkh',
      '0.00000001 1',
      '1n 1n 2100000000000000n',
      "{ name: 'bsc testnet', hexId: '0x61' }",
      '[]',
      "[ [ null, 'mempool' ] ]",
    ]);
  });

  it('leaves prose alone, and never runs what is not a literal', () => {
    const code = [
      'console.log(a); // ~1',
      'console.log(a); // true, and a message listing the 32 valid chains',
      "console.log(a); // [{ from: null, to: 'mempool', … }]",
      'console.log(a); // process.exit(1)',
      'console.log(a); // globalThis',
      "console.log(a); // ('x').repeat(1e9)",
      'f(a); // true',
      'console.log(a);',
    ].join('\n');
    expect(printedClaims(code)).toEqual([]);
  });
});

describe('missingClaim', () => {
  it('finds the claims as whole lines, in order', () => {
    expect(missingClaim('x\ntrue\n32\n', ['true', '32'])).toBeUndefined();
    expect(missingClaim('32\ntrue\n', ['true', '32'])).toBe('32');
    expect(missingClaim('132\n', ['32'])).toBe('32');
    expect(missingClaim('{\n  a: 1\n}\nnext\n', ['{\n  a: 1\n}', 'next'])).toBeUndefined();
  });
});
