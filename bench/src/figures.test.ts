import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  FIGURE_READMES,
  FIGURES_END,
  FIGURES_START,
  figuresBlock,
  RUNS_README,
  withFigures,
  withRuns,
} from './figures.ts';
import { RUNS_END, RUNS_START, recordName, runsBlock, runsOnRecord } from './record.ts';
import type { Results } from './report.ts';

const benchDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const committed = JSON.parse(readFileSync(join(benchDir, 'results', 'latest.json'), 'utf8')) as Results;

describe('the READMEs’ benchmark figures', () => {
  for (const { path, latestMd } of FIGURE_READMES) {
    it(`${path} quotes the committed results/latest.json, every ratio beside its baseline`, () => {
      const readme = readFileSync(join(benchDir, path), 'utf8');
      const block = figuresBlock(committed, latestMd);
      // When this fails: run `pnpm bench` (it rewrites the block) and commit results/ with the READMEs.
      expect(readme).toContain(block);
      for (const comparison of committed.comparisons) {
        for (const [reference, ratio] of Object.entries(comparison.ratios)) {
          const row = block
            .split('\n')
            .find(
              (line) =>
                line.startsWith(`| ${comparison.title} (\`${comparison.id}\`)`) &&
                line.includes(`(\`${reference}\`)`),
            );
          expect(row, `${comparison.id} vs ${reference}`).toContain(`**${ratio.toFixed(2)}**`);
        }
      }
    });
  }

  it('name the case a headline stands for, once, and every other case in rows of its own', () => {
    const block = figuresBlock(committed, 'results/latest.md');
    const webhook = committed.comparisons.find((c) => c.id === 'webhook-intake')!;
    const shown = webhook.cases!.find((k) => JSON.stringify(k.ratios) === JSON.stringify(webhook.ratios))!;
    expect(block).toContain(`| ${webhook.title} (\`webhook-intake\`): ${shown.name} |`);
    expect(block).not.toContain(`| \`webhook-intake\`: ${shown.name} |`);
    for (const k of webhook.cases!.filter((other) => other !== shown)) {
      expect(block).toContain(`| \`webhook-intake\`: ${k.name} |`);
    }
  });

  it('come from a run of every comparison repeated three times, not a quick one', () => {
    expect(committed.quick).toBe(false);
    expect(committed.repeat).toBeGreaterThanOrEqual(3);
  });
});

describe('the runs on record', () => {
  const resultsDir = join(benchDir, 'results');

  it(`${RUNS_README} lists every file of results/runs/`, () => {
    const readme = readFileSync(join(benchDir, RUNS_README), 'utf8');
    // When this fails: run `pnpm bench` (it rewrites the list) and commit results/ with the READMEs.
    expect(readme).toContain(runsBlock(runsOnRecord(resultsDir)));
  });

  it('hold results/latest.json, under its day and machine kind', () => {
    const onRecord = runsOnRecord(resultsDir).find((run) => run.file === recordName(committed));
    expect(onRecord?.results).toEqual(committed);
  });
});

describe('withFigures', () => {
  it('replaces only the block', () => {
    const readme = `# A\n\nbefore\n${FIGURES_START}\nold\n${FIGURES_END}\nafter\n`;
    expect(withFigures(readme, `${FIGURES_START}\nnew\n${FIGURES_END}`)).toBe(
      `# A\n\nbefore\n${FIGURES_START}\nnew\n${FIGURES_END}\nafter\n`,
    );
  });

  it('refuses a README without a block', () => {
    expect(() => withFigures('# A\n', 'x')).toThrow(/no "<!-- bench figures/);
  });
});

describe('withRuns', () => {
  it('replaces only the runs block, not the figures one', () => {
    const figures = `${FIGURES_START}\nfigures\n${FIGURES_END}`;
    const readme = `# A\n${figures}\n${RUNS_START}\nold\n${RUNS_END}\nafter\n`;
    expect(withRuns(readme, `${RUNS_START}\nnew\n${RUNS_END}`)).toBe(
      `# A\n${figures}\n${RUNS_START}\nnew\n${RUNS_END}\nafter\n`,
    );
    expect(() => withRuns(figures, 'x')).toThrow(/no "<!-- bench runs/);
  });
});
