/**
 * `server.json`, the metadata MCP registries read (schema of 2025-12-11, the registry's current
 * release): shipped in the package, its constraints held here (the registry's schema cannot be
 * fetched offline), and true to the package: its name, version and environment variables.
 */
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { ENVIRONMENT } from './server.js';

const read = (file: string) => JSON.parse(readFileSync(new URL(`../${file}`, import.meta.url), 'utf8'));
const server = read('server.json');
const pkg = read('package.json');

it('meets the registry schema: a reverse-DNS name, a description of at most 100 characters, a pinned version', () => {
  expect(server.$schema).toBe('https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json');
  expect(server.name).toMatch(/^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/);
  expect(server.description.length).toBeGreaterThan(0);
  expect(server.description.length).toBeLessThanOrEqual(100);
  expect(server.version).not.toMatch(/^[\^~>=<]|x|\*|latest/);
  expect(server.repository).toMatchObject({ url: expect.stringMatching(/^https:\/\//), source: 'github' });
  for (const entry of server.packages) {
    expect(Object.keys(entry).sort()).toEqual(
      [
        'environmentVariables',
        'identifier',
        'registryBaseUrl',
        'registryType',
        'runtimeHint',
        'transport',
        'version',
      ].sort(),
    );
    for (const variable of entry.environmentVariables) {
      expect(
        Object.keys(variable).every((key) =>
          ['name', 'description', 'isRequired', 'isSecret', 'format'].includes(key),
        ),
      ).toBe(true);
    }
  }
});

it('names this package: its npm name, version and mcpName, shipped in its files', () => {
  expect(server.name).toBe(pkg.mcpName);
  expect(server.version).toBe(pkg.version);
  expect(server.packages).toEqual([
    expect.objectContaining({
      registryType: 'npm',
      identifier: pkg.name,
      version: pkg.version,
      transport: { type: 'stdio' },
    }),
  ]);
  expect(pkg.files).toContain('server.json');
});

it('lists the environment variables the server reads, the key and the token as secrets', () => {
  const variables: { name: string; isSecret?: boolean; isRequired?: boolean }[] =
    server.packages[0].environmentVariables;
  expect(variables.map((variable) => variable.name).sort()).toEqual(Object.keys(ENVIRONMENT).sort());
  expect(
    variables
      .filter((variable) => variable.isSecret)
      .map((variable) => variable.name)
      .sort(),
  ).toEqual(['BLOCKWIRE_API_KEY', 'BLOCKWIRE_MCP_TOKEN']);
  expect(variables.filter((variable) => variable.isRequired).map((variable) => variable.name)).toEqual([
    'BLOCKWIRE_API_KEY',
  ]);
});
