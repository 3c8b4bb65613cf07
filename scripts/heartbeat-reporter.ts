/**
 * A line whenever a test run has been quiet for a while, so a long file (n8n installing into
 * ~/.cache/blockwire, apt-get fetching Chromium or PostgreSQL, the n8n end-to-end suites) never
 * looks like a hang: the default reporter prints only when a file finishes.
 *
 *   [tests] still running (3 min 5 s): 120 of 187 files done; running packages/x.test.ts (2 min 10 s)
 */
import { relative } from 'node:path';
import type { Reporter, TestModule, TestSpecification } from 'vitest/node';

export const QUIET_MS = 10_000;

export function duration(ms: number): string {
  const seconds = Math.round(ms / 1000);
  return seconds < 60 ? `${seconds} s` : `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
}

/** What the heartbeat knows of a run; `tick` prints when nothing was printed for `quietMs`. */
export class Heartbeat {
  private startedAt = 0;
  private lastLineAt = 0;
  private total = 0;
  private done = 0;
  private readonly running = new Map<string, number>();

  constructor(
    private readonly write: (line: string) => void,
    private readonly now: () => number = Date.now,
    private readonly quietMs = QUIET_MS,
  ) {}

  start(total: number): void {
    this.startedAt = this.now();
    this.lastLineAt = this.startedAt;
    this.total = total;
  }

  moduleStarted(file: string): void {
    this.running.set(file, this.now());
  }

  /** The default reporter prints a line for each finished file. */
  moduleEnded(file: string): void {
    this.running.delete(file);
    this.done++;
    this.lastLineAt = this.now();
  }

  tick(): void {
    const now = this.now();
    if (this.startedAt === 0 || now - this.lastLineAt < this.quietMs) return;
    this.lastLineAt = now;
    const running = [...this.running]
      .sort(([, a], [, b]) => a - b)
      .map(([file, since]) => `${file} (${duration(now - since)})`);
    this.write(
      `[tests] still running (${duration(now - this.startedAt)}): ${this.done} of ${this.total} files done` +
        (running.length > 0 ? `; running ${running.join(', ')}` : '; starting the next files'),
    );
  }
}

export default class HeartbeatReporter implements Reporter {
  private readonly heartbeat: Heartbeat;
  private timer: NodeJS.Timeout | undefined;

  /** `quietMs` comes from a config's `reporters: [[path, { quietMs }]]`; the CLI gives none. */
  constructor({ quietMs = QUIET_MS }: { quietMs?: number } = {}) {
    this.heartbeat = new Heartbeat((line) => process.stderr.write(`${line}\n`), Date.now, quietMs);
  }

  onTestRunStart(specifications: ReadonlyArray<TestSpecification>): void {
    this.heartbeat.start(specifications.length);
    this.timer = setInterval(() => this.heartbeat.tick(), 1000);
    this.timer.unref();
  }

  onTestModuleStart(module: TestModule): void {
    this.heartbeat.moduleStarted(relative(process.cwd(), module.moduleId));
  }

  onTestModuleEnd(module: TestModule): void {
    this.heartbeat.moduleEnded(relative(process.cwd(), module.moduleId));
  }

  onTestRunEnd(): void {
    clearInterval(this.timer);
  }
}
