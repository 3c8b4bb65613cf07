/**
 * A release, the way a user meets it: in a temporary copy of the repo, a changeset is added, every
 * package is versioned and published (`pnpm version-packages`, `pnpm release`) to a private
 * registry on 127.0.0.1, and fresh projects install the packages from that registry alone and use
 * them against the emulator, also installed from it. Every client is pointed at the private
 * registry for the whole test: nothing asks the public one.
 */
import { execFile } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { skipped } from '@blockwire/testing/skips';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_NODE_FILE_BYTES } from '../packages/n8n-nodes-blockwire/test/node-file-budget.ts';
import { dependencyClosure, findInstalled, republish } from './release/mirror.js';
import { type Registry, startRegistry } from './release/registry.js';

const root = join(import.meta.dirname, '..');
const work = mkdtempSync(join(tmpdir(), 'blockwire-release-'));
const copy = join(work, 'repo');
const pnpm = join(root, '.tools', 'bin', 'pnpm');
/** The tools the workspace's MCP server lists (its snapshot, refreshed by pnpm generate). */
const MCP_TOOL_COUNT = JSON.parse(
  readFileSync(join(root, 'packages/mcp/src/__snapshots__/tools.json'), 'utf8'),
).length;
let registry: Registry;
let env: NodeJS.ProcessEnv;

interface Manifest {
  name: string;
  version: string;
  private?: boolean;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}
const published = () =>
  readdirSync(join(copy, 'packages'))
    .map((folder) => join(copy, 'packages', folder))
    .filter((dir) => existsSync(join(dir, 'package.json')))
    .map((dir) => ({
      dir,
      manifest: JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest,
    }))
    .filter(({ manifest }) => !manifest.private);

/**
 * Runs a command without blocking the test worker: a synchronous minute-long install starves
 * vitest's worker RPC (it reports a timeout although every test passed).
 */
async function run(command: string, args: string[], cwd: string): Promise<string> {
  try {
    const { stdout } = await promisify(execFile)(command, args, {
      cwd,
      env,
      encoding: 'utf8',
      maxBuffer: 64 << 20,
    });
    return stdout;
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw new Error(`${command} ${args.join(' ')} failed in ${cwd}:\n${stdout ?? ''}\n${stderr ?? ''}`);
  }
}

/** The files git knows (tracked, or new and not ignored), as they are in the working tree, in a new repository. */
async function copyRepo(): Promise<void> {
  const files = (await run('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], root))
    .split('\0')
    .filter((file) => file && existsSync(join(root, file)));
  for (const file of files) {
    mkdirSync(dirname(join(copy, file)), { recursive: true });
    cpSync(join(root, file), join(copy, file));
  }
  // A repository of its own: `changeset publish` tags each release in git.
  const git = (...args: string[]) => run('git', args, copy);
  await git('init', '-q', '-b', 'main');
  await git('add', '-A');
  await git('-c', 'user.name=release test', '-c', 'user.email=release@test.invalid', 'commit', '-qm', 'copy');
}

beforeAll(async () => {
  await copyRepo();
  registry = await startRegistry(mkdtempSync(join(work, 'registry-')));
  const npmrc = join(work, 'npmrc');
  writeFileSync(npmrc, registry.npmrc);
  writeFileSync(join(copy, '.npmrc'), registry.npmrc);
  env = {
    ...process.env,
    npm_config_registry: registry.url,
    npm_config_userconfig: npmrc,
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_update_notifier: 'false',
    PATH: `${dirname(process.execPath)}:${join(root, '.tools', 'bin')}:${process.env.PATH}`,
  };
  // The workspace's own dependencies come from the pnpm store: offline, nothing downloaded.
  await run(pnpm, ['install', '--offline', '--frozen-lockfile'], copy);
}, 300_000);

afterAll(async () => {
  await registry?.close();
  // A copy of the workspace with its install, and the fresh projects' node_modules: removed without
  // blocking the worker (a synchronous rm of them outlasted the 60 s hook limit beside four busy
  // processes).
  await rm(work, { recursive: true, force: true });
}, 300_000);

describe.skipIf(skipped('verdaccio'))('a release through changesets to a registry', () => {
  let version: string;

  it('versions every package of the fixed group to one version, with a CHANGELOG each', async () => {
    const before = published().map(({ manifest }) => manifest.version);
    writeFileSync(
      join(copy, '.changeset', 'release-test.md'),
      '---\n"@blockwire/core": patch\n---\n\nA change described for the release test.\n',
    );
    await run(pnpm, ['version-packages'], copy);
    const after = published();
    version = after[0]!.manifest.version;
    expect(new Set(after.map(({ manifest }) => manifest.version))).toEqual(new Set([version]));
    expect(version).not.toBe(before[0]);
    for (const { dir } of after) {
      expect(readFileSync(join(dir, 'CHANGELOG.md'), 'utf8')).toContain(`## ${version}`);
    }
    expect(readFileSync(join(copy, 'packages', 'core', 'CHANGELOG.md'), 'utf8')).toContain(
      'A change described for the release test.',
    );
    const server = JSON.parse(readFileSync(join(copy, 'packages', 'mcp', 'server.json'), 'utf8'));
    expect([server.version, ...server.packages.map((entry: { version: string }) => entry.version)]).toEqual([
      version,
      version,
    ]);
  }, 120_000);

  it('publishes every package with `pnpm release` (build, packaging checks, changeset publish)', async () => {
    // What the published packages need from elsewhere, and the consumers' TypeScript, from the
    // copies already installed here.
    const mirrored = dependencyClosure([
      ...published(),
      {
        dir: copy,
        manifest: {
          name: 'consumer tools',
          version: '0',
          dependencies: { typescript: '*', '@types/node': '*' },
        },
      },
    ]);
    for (const dir of mirrored.values()) await republish(dir, env);
    const output = await run(pnpm, ['release'], copy);
    for (const { manifest } of published()) {
      expect(output).toContain(`${manifest.name}@${version}`);
      const view = JSON.parse(await run('npm', ['view', `${manifest.name}@${version}`, '--json'], work));
      expect(view.version).toBe(version);
    }
  }, 900_000);

  it('publishes manifests with real version ranges, no private packages, and only what ships', async () => {
    const rows: string[] = [];
    for (const { manifest } of published()) {
      const view = JSON.parse(await run('npm', ['view', `${manifest.name}@${version}`, '--json'], work));
      for (const field of ['dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies']) {
        for (const [name, range] of Object.entries((view[field] ?? {}) as Record<string, string>)) {
          expect(range, `${manifest.name} ${field} ${name}`).not.toMatch(/^workspace:/);
          expect(name, `${manifest.name} ${field}`).not.toBe('@blockwire/testing');
          if (name.startsWith('@blockwire/')) expect(range).toContain(version);
        }
      }
      const tarball = join(work, `${manifest.name.replace('/', '-')}.tgz`);
      const download = await fetch(view.dist.tarball);
      expect(download.status, view.dist.tarball).toBe(200);
      writeFileSync(tarball, Buffer.from(await download.arrayBuffer()));
      const files = (await run('tar', ['-tzf', tarball], work)).trim().split('\n');
      expect(files.filter((file) => /\.test\.|\/src\/|\.env|\.npmrc|__fixtures__/.test(file))).toEqual([]);
      for (const map of files.filter((file) => file.endsWith('.map'))) {
        const content = JSON.parse(await run('tar', ['-xzOf', tarball, map], work));
        // A source map that names sources must carry them: the sources themselves are not shipped.
        expect(content.sourcesContent?.length ?? 0, map).toBe(content.sources.length);
      }
      const packed = readFileSync(tarball).length;
      rows.push(
        `${manifest.name}@${version}: ${files.length} files, ${(packed / 1024).toFixed(1)} KiB packed`,
      );
      // What n8n requires at start: each node file of the n8n packages (the verified one within its budget).
      for (const node of (view.n8n?.nodes ?? []) as string[]) {
        const bytes = Buffer.byteLength(await run('tar', ['-xzOf', tarball, `package/${node}`], work));
        rows.push(`  ${node}: ${(bytes / 1024).toFixed(1)} KiB`);
        if (manifest.name === 'n8n-nodes-blockwire')
          expect(bytes, node).toBeLessThanOrEqual(MAX_NODE_FILE_BYTES);
      }
    }
    process.stdout.write(`\nPublished tarballs:\n${rows.join('\n')}\n`);
  }, 120_000);
});

describe.skipIf(skipped('verdaccio'))('fresh projects installed from the registry alone', () => {
  const packages = ['core', 'prices', 'entities', 'streams', 'rpc', 'emulator', 'mcp'];
  async function project(
    name: string,
    extra: Record<string, unknown> = {},
    devDependencies = {},
  ): Promise<string> {
    const dir = join(work, name);
    mkdirSync(dir, { recursive: true });
    const version = JSON.parse(readFileSync(join(copy, 'packages', 'core', 'package.json'), 'utf8')).version;
    const dependencies = Object.fromEntries(packages.map((p) => [`@blockwire/${p}`, version]));
    writeFileSync(
      join(dir, 'package.json'),
      JSON.stringify({ name, private: true, ...extra, dependencies, devDependencies }, null, 2),
    );
    writeFileSync(join(dir, '.npmrc'), registry.npmrc);
    await run('npm', ['install', '--ignore-scripts'], dir);
    return dir;
  }

  const program = (load: (name: string) => string) => `
    ${load('@blockwire/emulator')}; ${load('@blockwire/core')}; ${load('@blockwire/prices')};
    ${load('@blockwire/entities')}; ${load('@blockwire/streams')}; ${load('@blockwire/rpc')};
    (async () => {
      const emu = await emulator.startEmulator();
      const client = core.createClient({ apiKey: emu.apiKey, baseUrls: emu.urls });
      try {
        const price = await prices.getEvmTokenPrice(client, { address: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48' });
        const found = await entities.searchEntities(client, { query: 'binance' });
        const list = await streams.listBitcoinStreams(client);
        const rpcClient = rpc.createRpcClient(client, { chain: 'eth' });
        const block = await rpcClient.getBlockByNumber('latest');
        console.log(JSON.stringify({
          symbol: price.tokenSymbol,
          entity: found.result.entities[0].id,
          streams: list.total,
          block: Number(block.number),
          validSignature: typeof streams.verifySignature,
        }));
      } finally {
        await client.close();
        await emu.close();
      }
    })().catch((error) => { console.error(error); process.exit(1); });`;

  it.each([
    [
      'ESM (import)',
      'esm-consumer',
      'mjs',
      (name: string) => `const ${alias(name)} = await import('${name}')`,
    ],
    [
      'CommonJS (require)',
      'cjs-consumer',
      'cjs',
      (name: string) => `const ${alias(name)} = require('${name}')`,
    ],
  ])(
    '%s runs against the emulator and prints real results',
    async (_kind, name, extension, load) => {
      const dir = await project(name);
      const file = join(dir, `main.${extension}`);
      const source = program(load);
      writeFileSync(file, extension === 'mjs' ? `(async () => { ${source} })();` : source);
      const result = JSON.parse((await run(process.execPath, [file], dir)).trim().split('\n').pop()!);
      expect(result).toEqual({
        symbol: 'USDC',
        entity: 'binance',
        streams: 0,
        block: expect.any(Number),
        validSignature: 'function',
      });
      expect(result.block).toBeGreaterThan(0);
    },
    300_000,
  );

  it("blockwire-mcp, as installed, serves the tools over stdio to the MCP SDK's own client", async () => {
    const dir = await project('mcp-consumer');
    const file = join(dir, 'main.mjs');
    writeFileSync(
      file,
      `import { startEmulator } from '@blockwire/emulator';
        import { Client } from '@modelcontextprotocol/sdk/client/index.js';
        import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
        const emu = await startEmulator({ anvil: false });
        const client = new Client({ name: 'release-test', version: '0.0.0' });
        try {
          await client.connect(new StdioClientTransport({
            command: ${JSON.stringify(join(dir, 'node_modules', '.bin', 'blockwire-mcp'))},
            env: { PATH: process.env.PATH, BLOCKWIRE_API_KEY: emu.apiKey, BLOCKWIRE_EVM_URL: emu.urls.evm },
          }));
          const { tools } = await client.listTools();
          const price = await client.callTool({
            name: 'getEvmTokenPrice',
            arguments: { address: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48' },
          });
          console.log(JSON.stringify({ tools: tools.length, symbol: price.structuredContent.result.tokenSymbol }));
        } finally {
          await client.close();
          await emu.close();
        }`,
    );
    const result = JSON.parse((await run(process.execPath, [file], dir)).trim().split('\n').pop()!);
    expect(result).toEqual({ tools: MCP_TOOL_COUNT, symbol: 'USDC' });
  }, 300_000);

  it.each([
    ['node16', 'Node16'],
    ['bundler', 'ESNext'],
  ])(
    'TypeScript type-checks with moduleResolution %s',
    async (resolution, module) => {
      const typescript = JSON.parse(
        readFileSync(join(findInstalled('typescript', copy)!, 'package.json'), 'utf8'),
      );
      const types = JSON.parse(
        readFileSync(join(findInstalled('@types/node', copy)!, 'package.json'), 'utf8'),
      );
      const dir = await project(
        `ts-${resolution}`,
        { type: 'module' },
        { typescript: typescript.version, '@types/node': types.version },
      );
      writeFileSync(
        join(dir, 'tsconfig.json'),
        JSON.stringify({
          compilerOptions: {
            strict: true,
            module,
            moduleResolution: resolution,
            target: 'ES2022',
            noEmit: true,
            types: ['node'],
          },
          files: ['main.ts'],
        }),
      );
      writeFileSync(
        join(dir, 'main.ts'),
        [
          "import { createClient, ValidationError } from '@blockwire/core';",
          "import { getEvmTokenPrice, type EvmTokenPrice } from '@blockwire/prices';",
          "import { searchEntities } from '@blockwire/entities';",
          "import { createBitcoinStream, type BitcoinStream } from '@blockwire/streams';",
          "import { createWebhookHandler } from '@blockwire/streams/webhooks';",
          "import { createRpcClient } from '@blockwire/rpc';",
          "import { startEmulator } from '@blockwire/emulator';",
          'export async function main(): Promise<number | undefined> {',
          '  const emu = await startEmulator();',
          '  const client = createClient({ apiKey: emu.apiKey, baseUrls: emu.urls });',
          "  const price: EvmTokenPrice = await getEvmTokenPrice(client, { address: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48' });",
          "  const found = await searchEntities(client, { query: 'binance' });",
          "  const stream: BitcoinStream = await createBitcoinStream(client, { webhookUrl: 'https://example.com/hook' });",
          "  const handler = createWebhookHandler({ secret: 'x', onBitcoin: () => {} });",
          "  const block = await createRpcClient(client, { chain: 'eth' }).getBlockByNumber('latest');",
          '  void [found, stream, handler, ValidationError];',
          '  return block ? price.usdPrice : undefined;',
          '}',
        ].join('\n'),
      );
      await run(process.execPath, [join(dir, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', dir], dir);
    },
    300_000,
  );
});

function alias(name: string): string {
  return name.split('/').pop()!;
}

/**
 * Installs an n8n package from the private registry as n8n's CommunityPackagesService would
 * (see below): `npm pack`, unpack, drop dev/peer/optional dependencies, `npm install
 * --ignore-scripts`. The folder it is in.
 */
async function installFromRegistry(name: string, version: string): Promise<string> {
  const download = join(work, 'n8n-download', name);
  mkdirSync(download, { recursive: true });
  writeFileSync(join(download, '.npmrc'), registry.npmrc);
  const tarball = (await run('npm', ['pack', `${name}@${version}`, '--quiet'], download)).trim();
  const installed = join(work, 'n8n-nodes', 'node_modules', name);
  mkdirSync(installed, { recursive: true });
  await run('tar', ['-xzf', join(download, tarball), '-C', installed, '--strip-components=1'], download);
  const manifestFile = join(installed, 'package.json');
  const { devDependencies, peerDependencies, optionalDependencies, ...manifest } = JSON.parse(
    readFileSync(manifestFile, 'utf8'),
  );
  void [devDependencies, peerDependencies, optionalDependencies];
  expect(manifest.dependencies ?? {}).toEqual({});
  writeFileSync(manifestFile, JSON.stringify(manifest, null, 2));
  writeFileSync(join(installed, '.npmrc'), registry.npmrc);
  await run(
    'npm',
    [
      'install',
      '--audit=false',
      '--fund=false',
      '--bin-links=false',
      '--install-strategy=shallow',
      '--ignore-scripts=true',
      '--package-lock=false',
    ],
    installed,
  );
  return installed;
}

describe.skipIf(skipped('verdaccio', 'n8n'))(
  'n8n-nodes-blockwire installed into a real n8n from the registry',
  () => {
    // n8n's Settings → Community Nodes installs from the public registry only: a custom one
    // (N8N_COMMUNITY_PACKAGES_REGISTRY) is a licensed feature. So this takes the steps n8n's
    // CommunityPackagesService.downloadPackage takes, against the private registry: `npm pack`,
    // unpack, drop dev/peer/optional dependencies, `npm install --ignore-scripts`; then n8n loads the
    // folder and runs a workflow with the node.
    it('loads it and runs a workflow with it', async () => {
      const version = JSON.parse(
        readFileSync(join(copy, 'packages', 'core', 'package.json'), 'utf8'),
      ).version;
      const installed = await installFromRegistry('n8n-nodes-blockwire', version);
      // The unverified PostgreSQL trigger beside it, as self-hosted queue mode installs it.
      const installedPostgres = await installFromRegistry('n8n-nodes-blockwire-postgres', version);

      const { ensureN8n } = await import('../packages/n8n-nodes-blockwire/e2e/install-n8n');
      const { executeOutput, prepareN8n, removeEnvironment, runN8nCli, writeImportFiles } = await import(
        '../packages/n8n-nodes-blockwire/e2e/n8n'
      );
      const { actionNode, credentialImport, manualTrigger, workflow } = await import(
        '../packages/n8n-nodes-blockwire/e2e/workflows'
      );
      const { startEmulator } = await import('@blockwire/emulator');
      const { credentialsFor } = await import('../packages/n8n-nodes-blockwire/test/support/emulator');
      const install = await ensureN8n();
      const emulator = await startEmulator({ anvil: false });
      const environment = await prepareN8n({ packageDir: installed, morePackageDirs: [installedPostgres] });
      try {
        const credential = { id: 'bwReleaseCred001', name: 'Blockwire (emulator)' };
        const price = workflow('bwReleaseTest0001', 'Released node: a token price', [
          manualTrigger(),
          actionNode('CUSTOM.', credential, 'USDC on Ethereum', {
            resource: 'tokenPrice',
            operation: 'getEvm',
            address: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48',
          }),
        ]);
        const files = writeImportFiles(environment, {
          credentials: [credentialImport(credential, { ...credentialsFor(emulator) })],
          workflows: [price],
        });
        for (const args of [
          ['import:credentials', `--input=${files.credentials}`],
          ['import:workflow', '--separate', `--input=${files.workflows}`],
        ]) {
          const imported = await runN8nCli(install, environment, args);
          expect(imported.code, imported.stderr).toBe(0);
        }
        const result = await runN8nCli(install, environment, ['execute', `--id=${price.id}`, '--rawOutput'], {
          timeoutMs: 180_000,
        });
        expect(result.code, `${result.stdout}\n${result.stderr}`).toBe(0);
        const run = executeOutput(result.stdout) as {
          data: {
            resultData: {
              runData: Record<string, { data: { main: { json: Record<string, unknown> }[][] } }[]>;
            };
          };
        };
        const [item] = run.data.resultData.runData['USDC on Ethereum']![0]!.data.main[0]!;
        expect(item!.json).toMatchObject({ tokenSymbol: 'USDC', usdPrice: expect.any(Number) });
      } finally {
        await emulator.close();
        removeEnvironment(environment);
      }
    }, 600_000);
  },
);
