import { writeFileSync } from 'node:fs';
import type { Reporter, TestModule } from 'vitest/node';

export interface Totals {
  passed: number;
  failed: number;
  skipped: number;
}

/**
 * Every test of the run by its result; a test that never got one (todo, left out by a filter or
 * by a failing hook) counts as skipped. A module that failed without a failing test of its own (it
 * did not load, or a hook of it threw) and every error vitest could not pin on a test count as one
 * failure each, so a broken run never reads as green.
 */
export function countTotals(
  modules: ReadonlyArray<TestModule>,
  unhandledErrors: ReadonlyArray<unknown>,
): Totals {
  const totals: Totals = { passed: 0, failed: 0, skipped: 0 };
  for (const module of modules) {
    let failedTests = 0;
    for (const test of module.children.allTests()) {
      const { state } = test.result();
      if (state === 'passed') totals.passed++;
      else if (state === 'failed') failedTests++;
      else totals.skipped++;
    }
    totals.failed += failedTests;
    if (module.state() === 'failed' && failedTests === 0) totals.failed++;
  }
  totals.failed += unhandledErrors.length;
  return totals;
}

/** Counts every test of the run and writes the totals for scripts/run-tests.mjs to print. */
export default class TotalsReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>): void {
    const out = process.env.BLOCKWIRE_TOTALS_FILE;
    if (out) writeFileSync(out, JSON.stringify(countTotals(modules, unhandledErrors)));
  }
}
