#!/usr/bin/env node
/**
 * Run after tsup (each library's `build`): every source map under dist/ names its files relative
 * to itself. tsup's CommonJS pass chains esbuild's map through the .cjs it wrote, so that .cjs,
 * by the build machine's absolute path, became the first source and the `file` of every
 * .cjs.map with code in it, and shipped in every published package. It is done here rather than
 * in tsup's onSuccess, which runs before those maps are final.
 *
 *   node ../../scripts/relative-source-maps.mjs [dist]
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';

const dist = resolve(process.argv[2] ?? 'dist');

for (const name of readdirSync(dist, { recursive: true })) {
  if (!name.endsWith('.map')) continue;
  const path = join(dist, name);
  const map = JSON.parse(readFileSync(path, 'utf8'));
  const here = dirname(path);
  const local = (file) => (typeof file === 'string' && isAbsolute(file) ? relative(here, file) : file);
  const sources = (map.sources ?? []).map(local);
  const file = local(map.file);
  if (file === map.file && sources.every((source, i) => source === map.sources[i])) continue;
  writeFileSync(path, JSON.stringify({ ...map, ...(file === undefined ? {} : { file }), sources }));
}
