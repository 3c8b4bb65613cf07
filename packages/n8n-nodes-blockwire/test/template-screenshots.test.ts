/* eslint-disable @n8n/community-nodes/no-restricted-imports --
   Test code: runs in vitest, never inside n8n (package.json#files is dist). */
/**
 * Every template in templates/ has its screenshot (docs/templates/<name>.png, made from n8n's
 * editor by `pnpm --filter n8n-nodes-blockwire screenshots`), and the README's Templates section
 * lists the template with it. Offline: it reads files only.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  PACKAGE_DIR,
  SCREENSHOT_VIEWPORT as VIEWPORT,
  SCREENSHOTS_DIR,
  screenshotOf,
  templates,
} from '../e2e/templates.ts';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** A canvas of a handful of nodes compresses to tens of kB; a bigger file is the wrong picture. */
const MAX_SCREENSHOT_BYTES = 150 * 1024;

function templatesSection(): string {
  const readme = readFileSync(join(PACKAGE_DIR, 'README.md'), 'utf8');
  const start = readme.indexOf('\n## Templates\n');
  expect(start).toBeGreaterThan(-1);
  const end = readme.indexOf('\n## ', start + 1);
  return readme.slice(start, end === -1 ? undefined : end);
}

/** Width and height from the PNG's IHDR chunk. */
function pngSize(png: Buffer): { width: number; height: number } {
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

describe('template screenshots', () => {
  const all = templates();

  it('finds the templates', () => {
    expect(all.length).toBeGreaterThanOrEqual(4);
  });

  it.each(all.map((template) => [template.name, template] as const))(
    '%s has a small PNG of the editor, no larger than the viewport it was taken in',
    (_name, template) => {
      const file = join(PACKAGE_DIR, screenshotOf(template));
      expect(
        existsSync(file),
        `${screenshotOf(template)} is missing: pnpm --filter n8n-nodes-blockwire screenshots`,
      ).toBe(true);
      const png = readFileSync(file);
      expect(png.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
      expect(png.length).toBeLessThanOrEqual(MAX_SCREENSHOT_BYTES);
      const { width, height } = pngSize(png);
      expect(width).toBeGreaterThan(VIEWPORT.width / 2);
      expect(width).toBeLessThanOrEqual(VIEWPORT.width);
      expect(height).toBeLessThanOrEqual(VIEWPORT.height);
    },
  );

  it.each(all.map((template) => [template.name, template] as const))(
    '%s is listed in the README with its screenshot, in one row',
    (_name, template) => {
      const row = templatesSection()
        .split('\n')
        .find((line) => line.startsWith(`| [\`${template.file}\`](templates/${template.file}) |`));
      expect(row, `no README row for ${template.file}`).toBeDefined();
      expect(row).toContain(`](${screenshotOf(template)})`);
    },
  );

  it('holds no screenshot of a template that is gone', () => {
    const names = new Set(all.map((template) => `${template.name}.png`));
    const pictures = readdirSync(join(PACKAGE_DIR, SCREENSHOTS_DIR)).filter((file) => file.endsWith('.png'));
    expect(pictures.filter((file) => !names.has(file))).toEqual([]);
  });
});
