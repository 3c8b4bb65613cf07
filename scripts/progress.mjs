// Runs a long command and says what it is doing, one plain line at a time (no spinner: a CI log
// keeps every line). A step that ends within `quietMs` prints nothing, so a warm run stays as
// quiet as before; a longer one is announced, then a line every `everyMs` says how long it has
// run, and the last line how long it took:
//
//   [bootstrap] installing the dependencies (pnpm install; minutes on a fresh clone, seconds afterwards) …
//   [bootstrap] still installing the dependencies: 15 s
//   [bootstrap] installing the dependencies: done in 71 s
import { spawn } from 'node:child_process';

/** The longest silence a first run may have (the issue's bound is 15 s). */
export const QUIET_MS = 5_000;
export const EVERY_MS = 10_000;

const seconds = (ms) => `${Math.round(ms / 1000)} s`;

/**
 * Calls `work` (a promise-returning function) and reports on it through `write` while it runs.
 * `what` is the step in words ("building the demo"), `expect` how long it usually takes.
 */
export async function withProgress(
  work,
  { prefix, what, expect, write, quietMs = QUIET_MS, everyMs = EVERY_MS },
) {
  const started = Date.now();
  const say = (text) => write(`[${prefix}] ${text}\n`);
  let announced = false;
  let heartbeat;
  // Infinity: never announced (a setTimeout of Infinity would fire at once).
  const announce = Number.isFinite(quietMs)
    ? setTimeout(() => {
        announced = true;
        say(`${what}${expect ? ` (${expect})` : ''} …`);
        heartbeat = setInterval(() => say(`still ${what}: ${seconds(Date.now() - started)}`), everyMs);
      }, quietMs)
    : undefined;
  try {
    return await work();
  } finally {
    clearTimeout(announce);
    clearInterval(heartbeat);
    if (announced) say(`${what}: done in ${seconds(Date.now() - started)}`);
  }
}

/**
 * Runs a command as a step: resolves to `{ status, output }` (`output` is what it printed when
 * `capture` is set; otherwise its output goes straight to the terminal).
 */
export function runStep(command, args, { spawnOptions = {}, capture = false, ...progress }) {
  return withProgress(
    () =>
      new Promise((resolve) => {
        const child = spawn(command, args, {
          ...spawnOptions,
          stdio: capture ? ['ignore', 'pipe', 'pipe'] : (spawnOptions.stdio ?? 'inherit'),
        });
        let output = '';
        if (capture) {
          child.stdout.on('data', (chunk) => {
            output += chunk;
          });
          child.stderr.on('data', (chunk) => {
            output += chunk;
          });
        }
        child.on('error', (error) => resolve({ status: 1, output: `${output}${error.message}\n` }));
        child.on('close', (code, signal) => resolve({ status: code ?? (signal ? 1 : 0), output }));
      }),
    { write: (text) => process.stderr.write(text), ...progress },
  );
}
