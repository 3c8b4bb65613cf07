/**
 * The root README quotes the `n8n-queue` figures of the last full run: they must be the ones in
 * reliability/results/latest.json (rerunning `pnpm test:reliability` means updating the README).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { RESULTS_DIR, type ScenarioResult } from './report.ts';

const root = join(RESULTS_DIR, '..', '..');

it('the README’s n8n queue-mode figures are those of reliability/results/latest.json', () => {
  const results = JSON.parse(readFileSync(join(RESULTS_DIR, 'latest.json'), 'utf8')) as {
    scale: string;
    scenarios: ScenarioResult[];
  };
  const queue = results.scenarios.find((scenario) => scenario.id === 'n8n-queue');
  expect(queue, 'latest.json has no n8n-queue run').toBeDefined();
  expect(results.scale).toBe('full');
  const figures = queue!.figures as Record<string, Record<string, number> | number>;
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const section = readme
    .slice(readme.indexOf('### n8n in queue mode'), readme.indexOf('## Reliability'))
    .replace(/\s+/g, ' ');
  const columns = [
    'deliveriesSent',
    'lostBeforeN8n',
    'deliveriesReceived',
    'answersLostAfterN8n',
    'executionsStarted',
    'itemsReceived',
    'itemsPassedOn',
    'duplicatesDropped',
  ];
  for (const stage of ['mempool', 'in-block', 'confirmed']) {
    const row = columns.map((column) => (figures[column] as Record<string, number>)[stage]).join(' | ');
    expect(section).toContain(`| ${stage} | ${row} |`);
  }
  const copies = (name: string) => figures[name] as Record<string, number>;
  const byWorker = Object.values(copies('executionsByProcess'));
  expect(section).toContain(`${figures.transactions} payments`);
  expect(section).toContain(`${figures.lost} transaction stages lost and ${figures.doubled} passed on twice`);
  expect(section).toContain(`the ${figures.n8nExecutionRecords} executions ran on the workers`);
  expect(section).toContain(`(${byWorker.sort((a, b) => b - a).join(' and ')})`);
  const dropped = Object.values(copies('duplicatesDropped')).reduce((a, b) => a + b, 0);
  expect(section).toContain(`${figures.duplicatesDroppedOnTheOtherWorker} of the ${dropped} repeats`);
  expect(section).toContain(
    `${copies('simultaneousCopies').deliveries} new deliveries each posted twice at the same`,
  );
  expect(section).toContain(`(${copies('simultaneousCopies').onTwoWorkers} pairs split across both workers)`);
  expect(section).toContain(
    `${copies('n8nStoreSimultaneousCopies').doubled} of ${copies('n8nStoreSimultaneousCopies').deliveries} went through twice`,
  );
  expect(section).toContain(`with ${figures.solanaHttpCalls} HTTP calls`);
});
