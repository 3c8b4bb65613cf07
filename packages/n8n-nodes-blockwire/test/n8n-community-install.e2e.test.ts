/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals --
   Test code: runs in vitest, never inside n8n (package.json#files is dist). */
/**
 * The community-package install, the route n8n users take (Settings → Community nodes → Install,
 * which is `POST /rest/community-packages` with `{ name }`), in a real n8n 2.41.1, with the packed
 * package published to a private registry (verdaccio) on 127.0.0.1.
 *
 * What n8n 2.41.1 does there (its dist/modules/community-packages/community-packages.service.js):
 * the registry is `N8N_COMMUNITY_PACKAGES_REGISTRY` (default https://registry.npmjs.org), and any
 * other registry needs the enterprise licence feature `feat:communityNodes:customRegistry`
 * (`getNpmRegistry()`); every npm command it runs passes `--registry=<that registry>`, so no npm
 * config can point it elsewhere. Without that licence, the install from a private registry is
 * refused before npm runs, which the second test pins. The third takes the route a self-hosted
 * n8n behind a company's TLS-inspecting proxy takes (e2e/registry-proxy.ts): the default
 * registry's host answered by the proxy from the private registry; n8n runs npm, loads the nodes,
 * and a workflow using one runs against the emulator.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { type Emulator, startEmulator } from '@blockwire/emulator';
import { skipped } from '@blockwire/testing/skips';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Registry, startRegistry } from '../../../scripts/release/registry.ts';
import { ensureN8n, type N8nInstall } from '../e2e/install-n8n.ts';
import {
  executeOutput,
  N8nApi,
  type N8nEnvironment,
  type N8nProcess,
  prepareN8n,
  removeEnvironment,
  runN8nCli,
  startN8nServer,
  writeImportFiles,
} from '../e2e/n8n.ts';
import { type RegistryProxy, startRegistryProxy } from '../e2e/registry-proxy.ts';
import { actionNode, credentialImport, manualTrigger, workflow } from '../e2e/workflows.ts';
import { credentialsFor } from './support/emulator';

const packageDir = join(__dirname, '..');
const PACKAGE = 'n8n-nodes-blockwire';
const work = mkdtempSync(join(tmpdir(), 'blockwire-community-install-'));
let install: N8nInstall;
let registry: Registry;
let environment: N8nEnvironment | undefined;
let server: N8nProcess | undefined;
let emulator: Emulator | undefined;
let proxy: RegistryProxy | undefined;
const CREDENTIAL = { id: 'blockwireCommunity', name: 'Blockwire (emulator)' };

/** Stops the n8n of the previous test, so only one runs at a time. */
async function stopN8n(): Promise<void> {
  await server?.stop();
  server = undefined;
  removeEnvironment(environment);
  environment = undefined;
}

/** Packs the built package as npm would publish it and publishes it to the private registry. */
async function publishToRegistry(): Promise<void> {
  const pnpm = join(packageDir, '..', '..', '.tools', 'bin', 'pnpm');
  await promisify(execFile)(pnpm, ['pack', '--pack-destination', work], { cwd: packageDir });
  const tarball = readdirSync(work).find((file) => file.endsWith('.tgz'));
  if (!tarball) throw new Error(`pnpm pack left no tarball in ${work}`);
  const npmrc = join(work, 'npmrc');
  writeFileSync(npmrc, registry.npmrc);
  await promisify(execFile)('npm', ['publish', join(work, tarball), '--provenance=false'], {
    cwd: work,
    env: { ...process.env, npm_config_registry: registry.url, npm_config_userconfig: npmrc },
  });
}

/**
 * An n8n that has NOT got the package: no custom extensions (prepareN8n copies the build into
 * the folder N8N_CUSTOM_EXTENSIONS names; this points it at an empty one), community packages on.
 */
async function n8nWithoutThePackage(env: NodeJS.ProcessEnv): Promise<N8nEnvironment> {
  const prepared = await prepareN8n({ packageDir });
  const empty = join(prepared.root, 'no-extensions');
  mkdirSync(empty);
  return {
    ...prepared,
    env: { ...prepared.env, N8N_CUSTOM_EXTENSIONS: empty, N8N_COMMUNITY_PACKAGES_ENABLED: 'true', ...env },
  };
}

describe.skipIf(skipped('n8n', 'verdaccio'))(
  'installing the package from n8n’s Community nodes settings',
  () => {
    beforeAll(async () => {
      install = await ensureN8n();
      registry = await startRegistry(mkdtempSync(join(work, 'registry-')));
      await publishToRegistry();
    }, 15 * 60_000);

    afterAll(async () => {
      await server?.stop();
      await registry?.close();
      removeEnvironment(environment);
      rmSync(work, { recursive: true, force: true });
    }, 60_000);

    it('is published to the private registry as packed', async () => {
      const response = await fetch(`${registry.url}${PACKAGE}`);
      expect(response.status).toBe(200);
      const document = (await response.json()) as { 'dist-tags': { latest: string } };
      expect(document['dist-tags'].latest).toMatch(/^\d+\.\d+\.\d+/);
    });

    it('with N8N_COMMUNITY_PACKAGES_REGISTRY at that registry, n8n refuses the install without its enterprise licence', async () => {
      environment = await n8nWithoutThePackage({ N8N_COMMUNITY_PACKAGES_REGISTRY: registry.url });
      server = await startN8nServer(install, environment);
      const api = new N8nApi(server.url);
      await api.setUp();
      const attempt = api.rest('POST', '/rest/community-packages', { name: PACKAGE });
      await expect(attempt).rejects.toThrow(
        'Your license does not allow for feat:communityNodes:customRegistry. To enable feat:communityNodes:customRegistry, please upgrade to a license that supports this feature.',
      );
      // Refused before npm ran: nothing was fetched, nothing is installed.
      expect(await api.rest('GET', '/rest/community-packages')).toEqual([]);
      const downloaded = join(
        String(environment.env.N8N_USER_FOLDER),
        '.n8n',
        'nodes',
        'node_modules',
        PACKAGE,
      );
      expect(existsSync(downloaded)).toBe(false);
    }, 180_000);

    it('from n8n’s default registry, through a TLS-inspecting proxy to that registry: installs, loads the nodes, and a workflow runs', async () => {
      await stopN8n();
      emulator = await startEmulator({ anvil: false });
      proxy = await startRegistryProxy(work, registry.url);
      // n8n's own requests and the npm it runs both go through the proxy and trust its certificate.
      environment = await n8nWithoutThePackage({
        HTTPS_PROXY: proxy.url,
        npm_config_https_proxy: proxy.url,
        npm_config_cafile: proxy.caFile,
        NODE_EXTRA_CA_CERTS: proxy.caFile,
      });
      server = await startN8nServer(install, environment);
      const api = new N8nApi(server.url);
      await api.setUp();
      const installed = (await api.rest('POST', '/rest/community-packages', { name: PACKAGE })) as {
        packageName: string;
        installedNodes: { type: string }[];
      };
      expect(installed.packageName).toBe(PACKAGE);
      expect(installed.installedNodes.map((node) => node.type).sort()).toEqual(
        expect.arrayContaining([
          `${PACKAGE}.blockwire`,
          `${PACKAGE}.blockwireTrigger`,
          `${PACKAGE}.blockwirePriceTrigger`,
        ]),
      );
      expect(proxy.connects).toContain('registry.npmjs.org:443');

      const files = writeImportFiles(environment, {
        credentials: [credentialImport(CREDENTIAL, { ...credentialsFor(emulator) })],
        workflows: [
          workflow('bwCommunityPkg01', 'Blockwire from the community package', [
            manualTrigger(),
            actionNode(`${PACKAGE}.`, CREDENTIAL, 'Exchanges', {
              resource: 'entity',
              operation: 'getByCategory',
              categoryId: 'exchanges',
            }),
          ]),
        ],
      });
      for (const args of [
        ['import:credentials', `--input=${files.credentials}`],
        ['import:workflow', '--separate', `--input=${files.workflows}`],
      ]) {
        const result = await runN8nCli(install, environment, args);
        expect(result.code, `${result.stdout}\n${result.stderr}`).toBe(0);
      }
      const run = await runN8nCli(install, environment, ['execute', '--id=bwCommunityPkg01', '--rawOutput']);
      expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
      const output = executeOutput(run.stdout) as {
        data: {
          resultData: { runData: Record<string, { data: { main: { json: { name?: string } }[][] } }[]> };
        };
      };
      const items = output.data.resultData.runData.Exchanges?.[0]?.data.main[0] ?? [];
      expect(items.length).toBeGreaterThan(0);
      expect(typeof items[0]?.json.name).toBe('string');
    }, 300_000);
  },
);
