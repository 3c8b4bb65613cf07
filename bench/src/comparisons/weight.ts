/**
 * Weight: what a program that calls only the EVM token price costs in a bundle. esbuild bundles
 * it (minified, ESM) for Node and for a runtime that has `fetch` only (edge, browser: esbuild's
 * browser platform, whose conditions a package's `exports` answer), and the bundle is gzipped.
 * The same program with the official modular packages (@moralisweb3/evm-api and what it needs)
 * is the reference for each platform, the umbrella `moralis` package beside it. Each bundle is then run under Node
 * against a local server, so a size is never that of a bundle that does not work.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { build, type Metafile } from 'esbuild';
import { evmTokenPrice, USDC } from '../fixtures.ts';
import type { Case, Comparison } from '../report.ts';
import { listen, sendJson } from '../servers.ts';

const benchDir = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const run = promisify(execFile);

/**
 * The statement a program ends its call with, given the expression of the price: by default it
 * prints the price as JSON; `cold-start` prints the process's CPU time beside it.
 */
export type Report = (usdPrice: string) => string;
const printPrice: Report = (usdPrice) => `console.log(JSON.stringify({ usdPrice: ${usdPrice} }));`;

/** Each contender's program, for the server at `base`. */
export const programs = {
  blockwire: (base: string, report: Report = printPrice) => `
import { createClient } from '@blockwire/core';
import { getEvmTokenPrice } from '@blockwire/prices';
const client = createClient({ apiKey: 'bench-key', baseUrls: { evm: ${JSON.stringify(base)} } });
const price = await getEvmTokenPrice(client, { address: '${USDC}', chain: 'eth' });
${report('price.usdPrice')}
await client.close();
`,
  moralis: (base: string, report: Report = printPrice) => `
import Moralis from 'moralis';
await Moralis.start({ apiKey: 'bench-key', evmApiBaseUrl: ${JSON.stringify(base)} });
const price = await Moralis.EvmApi.token.getTokenPrice({ address: '${USDC}', chain: '0x1' });
${report('price.toJSON().usdPrice')}
process.exit(0);
`,
  // The modular official packages, registered by hand as their docs show: only the EVM API.
  'moralis-modular': (base: string, report: Report = printPrice) => `
import { Core } from '@moralisweb3/common-core';
import { ApiUtils } from '@moralisweb3/api-utils';
import { EvmApi } from '@moralisweb3/evm-api';
const core = Core.create();
const evmApi = EvmApi.create(core);
core.registerModules([evmApi, ApiUtils.create(core)]);
await core.start({ apiKey: 'bench-key', evmApiBaseUrl: ${JSON.stringify(base)} });
const price = await evmApi.token.getTokenPrice({ address: '${USDC}', chain: '0x1' });
${report('price.toJSON().usdPrice')}
process.exit(0);
`,
  // No library: the runtime's own fetch, the answer's JSON read without a check.
  fetch: (base: string, report: Report = printPrice) => `
const response = await fetch(${JSON.stringify(`${base}/erc20/${USDC}/price?chain=0x1`)}, {
  headers: { accept: 'application/json', 'x-api-key': 'bench-key' },
});
if (response.status !== 200) throw new Error(\`status \${response.status}\`);
const price = await response.json();
${report('price.usdPrice')}
`,
};

export type Platform = 'node' | 'browser';

export interface Bundle {
  bytes: number;
  gzipBytes: number;
  /** The largest inputs by package, in bytes of minified output. */
  packages: [string, number][];
}

/** The export condition that picks Blockwire's fetch build where the platform would pick Node's. */
export const FETCH_BUILD_CONDITION = 'worker';

export async function bundle(
  source: string,
  platform: Platform,
  outfile: string,
  conditions: string[] = [],
): Promise<Bundle> {
  const entry = join(dirname(outfile), `entry-${Math.random().toString(36).slice(2)}.mjs`);
  writeFileSync(entry, source);
  const result = await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    minify: true,
    format: 'esm',
    platform,
    conditions,
    target: platform === 'node' ? 'node22' : 'es2022',
    // The program runs in the bench's folder, where its dependencies are installed.
    nodePaths: [join(benchDir, 'node_modules')],
    absWorkingDir: benchDir,
    // A Node bundle of CommonJS code needs `require` for Node's own modules.
    banner:
      platform === 'node'
        ? {
            js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);",
          }
        : {},
    // Node's `process` is used by the program itself (the official SDK's exit); not by Blockwire.
    define: platform === 'browser' ? { 'process.exit': 'globalThis.process.exit' } : {},
    metafile: true,
    write: true,
    logLevel: 'silent',
    legalComments: 'none',
  }).catch((error: { errors?: { text: string; location?: { file: string } | null }[] }) => {
    const first = error.errors?.[0];
    throw new Error(
      `the ${platform} bundle does not build (${error.errors?.length ?? '?'} errors), first: ${first?.text} in ${first?.location?.file}`,
    );
  });
  const code = readFileSync(outfile);
  return {
    bytes: code.length,
    gzipBytes: gzipSync(code, { level: 9 }).length,
    packages: packagesOf(result.metafile!),
  };
}

function packagesOf(metafile: Metafile): [string, number][] {
  const sizes = new Map<string, number>();
  for (const output of Object.values(metafile.outputs)) {
    for (const [path, { bytesInOutput }] of Object.entries(output.inputs)) {
      const name =
        /node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)/.exec(path)?.[1] ?? 'program';
      sizes.set(name, (sizes.get(name) ?? 0) + bytesInOutput);
    }
  }
  return [...sizes].sort((a, b) => b[1] - a[1]).slice(0, 6);
}

const kB = (bytes: number) => bytes / 1000;

export async function weight(): Promise<Comparison> {
  const body = Buffer.from(JSON.stringify(evmTokenPrice));
  const server = await listen((_req, res) => sendJson(res, 200, body));
  const dir = mkdtempSync(join(tmpdir(), 'blockwire-weight-'));
  const base = `${server.url}/api/v2.2`;
  /** Bundles a program and runs the bundle under Node: it must print the price. */
  const bundleAndRun = async (
    name: Exclude<keyof typeof programs, 'fetch'>,
    platform: Platform,
    conditions: string[] = [],
  ): Promise<Bundle> => {
    const outfile = join(dir, `${name}-${platform}${conditions.map((c) => `-${c}`).join('')}.mjs`);
    const built = await bundle(programs[name](base), platform, outfile, conditions);
    const { stdout } = await run(process.execPath, [outfile], { timeout: 60_000 });
    if (!stdout.includes(`"usdPrice":${evmTokenPrice.usdPrice}`)) {
      throw new Error(`the ${platform} bundle of ${name} printed ${stdout}`);
    }
    return built;
  };
  let blockwire: Record<Platform | 'nodeFetch', Bundle>;
  let moralisNode: Bundle;
  let moralisBrowser: Bundle | Error;
  let modular: Record<Platform, Bundle>;
  try {
    blockwire = {
      browser: await bundleAndRun('blockwire', 'browser'),
      node: await bundleAndRun('blockwire', 'node'),
      nodeFetch: await bundleAndRun('blockwire', 'node', [FETCH_BUILD_CONDITION]),
    };
    moralisNode = await bundleAndRun('moralis', 'node');
    // The umbrella package is a Node.js SDK: for a fetch-only runtime it may not bundle at all.
    moralisBrowser = await bundleAndRun('moralis', 'browser').catch((error: Error) => error);
    modular = {
      browser: await bundleAndRun('moralis-modular', 'browser'),
      node: await bundleAndRun('moralis-modular', 'node'),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await server.close();
  }
  const describe = (b: Bundle) =>
    `${kB(b.bytes).toFixed(0)} kB minified; largest parts: ${b.packages.map(([n, s]) => `${n} ${kB(s).toFixed(0)} kB`).join(', ')}`;
  /** Each platform's bundle against the same platform's official bundles (the umbrella's Node one where it has no other). */
  const caseOf = (platform: Platform, build: 'browser' | 'node' | 'nodeFetch', name: string): Case => {
    const ours = blockwire[build].gzipBytes;
    const umbrella = platform === 'node' || moralisBrowser instanceof Error ? moralisNode : moralisBrowser;
    return {
      name,
      blockwire: kB(ours),
      references: { 'moralis-modular': kB(modular[platform].gzipBytes), moralis: kB(umbrella.gzipBytes) },
      ratios: { 'moralis-modular': modular[platform].gzipBytes / ours, moralis: umbrella.gzipBytes / ours },
    };
  };
  const cases = [
    caseOf('browser', 'browser', 'fetch-only runtime (esbuild platform browser)'),
    caseOf('node', 'node', 'Node, default build: undici transport (esbuild platform node)'),
    caseOf(
      'node',
      'nodeFetch',
      `Node, fetch build (esbuild platform node, condition \`${FETCH_BUILD_CONDITION}\`)`,
    ),
  ];
  const [browser, , nodeFetch] = cases as [Case, Case, Case];
  return {
    id: 'weight',
    title: 'Weight: a bundle of a program that calls only getEvmTokenPrice',
    metric:
      'esbuild bundle, minified, gzip -9, for a fetch-only runtime (edge, browser); references: the official modular packages for the same platform, and the umbrella `moralis` package',
    unit: 'kB',
    higherIsBetter: false,
    blockwire: browser.blockwire,
    references: browser.references,
    ratios: browser.ratios,
    rounds: 1,
    targets: [
      {
        text: 'fetch-only runtime: ≤ 32 kB gzip',
        met: blockwire.browser.gzipBytes <= 32_000,
      },
      {
        text: 'fetch-only runtime: ≤ the official modular packages’ browser bundle',
        met: browser.ratios['moralis-modular']! >= 1,
      },
      {
        text: `Node: a build ≤ the official modular packages’ Node bundle (the fetch build, by the \`${FETCH_BUILD_CONDITION}\` condition; the default keeps undici for its CPU per call, see rest-overhead)`,
        met: nodeFetch.ratios['moralis-modular']! >= 1,
      },
    ],
    cases,
    notes: [
      `Blockwire, fetch-only: ${describe(blockwire.browser)}.`,
      `Blockwire, Node: ${describe(blockwire.node)}; the fetch build on Node: ${describe(blockwire.nodeFetch)}.`,
      `On Node, the default build drives undici's dispatcher: rest-overhead measures the client CPU per call of both transports (its last note), and the default stays the faster one; a Node program that would rather be small bundles with \`--conditions=${FETCH_BUILD_CONDITION}\` and gets the fetch build, whose transport is Node's own fetch.`,
      `moralis 2.27.2, Node: ${describe(moralisNode)}.`,
      `@moralisweb3/evm-api + common-core + api-utils 2.27.2, browser: ${describe(modular.browser)}; Node: ${describe(modular.node)}.`,
      moralisBrowser instanceof Error
        ? `moralis 2.27.2 for a fetch-only runtime: ${moralisBrowser.message.split('\n')[0]}; its Node bundle is the reference.`
        : `moralis 2.27.2, browser platform: ${describe(moralisBrowser)}.`,
      'Each bundle that built was run under Node against a local server and printed the price.',
    ],
  };
}
