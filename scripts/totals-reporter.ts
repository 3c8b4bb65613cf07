import { writeFileSync } from 'node:fs';
import type { Reporter } from 'vitest/reporters';

interface TaskLike {
  type: string;
  mode?: string;
  result?: { state?: string };
  tasks?: TaskLike[];
}

/** Counts every test of the run and writes the totals for scripts/run-tests.mjs to print. */
export default class TotalsReporter implements Reporter {
  onFinished(files: TaskLike[] = [], errors: unknown[] = []) {
    const totals = { passed: 0, failed: 0, skipped: 0 };
    const visit = (task: TaskLike): number => {
      if (task.type === 'test') {
        const state = task.result?.state;
        if (state === 'pass') totals.passed++;
        else if (state === 'fail') totals.failed++;
        else totals.skipped++;
        return state === 'fail' ? 1 : 0;
      }
      return (task.tasks ?? []).reduce((sum, child) => sum + visit(child), 0);
    };
    for (const file of files) {
      const failedTests = visit(file);
      // A file that failed to load or whose hooks failed has no failing test to show for it.
      if (file.result?.state === 'fail' && failedTests === 0) totals.failed++;
    }
    totals.failed += errors.length;
    const out = process.env.BLOCKWIRE_TOTALS_FILE;
    if (out) writeFileSync(out, JSON.stringify(totals));
  }
}
