/**
 * One contender of a comparison in a process of its own. In one shared process, every client's
 * garbage lands in one heap, and a garbage collection started by one contender's allocations
 * finishes, and is paid for, in whichever run happens to be going: in the JSON-RPC comparison a
 * ~100 ms mark-compact of the whole bench's heap fell into about one Blockwire run in two. Here
 * each client pays for its own heap alone, as in a program that uses it.
 *
 * A module of clients exports `makeClient(name, config)`, which builds that one client and
 * returns how to run it once. `startClientProcess` starts it in a child (pinned with the bench's
 * own process, whose CPUs it inherits; a server it starts goes where the bench's servers go); each `run`
 * times one run and returns its figure with the CPU time the child spent on it.
 *
 * A run starts as the one before it ended, as calls do in a program that makes them all day: no
 * collection is forced in between. A forced `gc()` is a full collection: it clears what V8's
 * optimized code holds weakly and nothing else holds any more (here, the last run's objects), and
 * throws that code away ("embedded weak objects cleared" under `--trace-deopt`), so every run
 * after one paid for compiling the clients' hot functions again: about twice the client CPU a call
 * of a program that never forces one (bench/README.md).
 *
 *   node src/client-process.ts   (with an IPC channel; the parent says what to build)
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { constants, PerformanceObserver } from 'node:perf_hooks';
import type { MeasureOptions, Run } from './harness.ts';
import { adoptPinning, currentPinning, type Pinning } from './machine.ts';

/**
 * What a comparison's notes say of clients run this way, their rounds spread over `processes`
 * lifetimes (a count, or the counts of its cases, e.g. `5 to 15`).
 */
export function ownProcessNote(processes: number | string): string {
  const spread =
    processes !== 1
      ? ` Its measured rounds are spread over ${processes} fresh processes one after another, each warmed up again, all contenders restarted together: one process's collector can settle into a costly state for its whole life, so one process is one draw of that.`
      : '';
  return `Each client runs in a process of its own (a child of the bench, on its CPUs), with no collection forced between its runs: its CPU figure is its own work and its own heap's collections, not another client's.${spread}`;
}

/** What a module of clients builds for one contender. */
export interface Client<Args> {
  /** Runs once with `args` and returns the figure (e.g. requests per second, or milliseconds). */
  run(args: Args): Promise<number>;
  close(): Promise<void>;
}

export type MakeClient<Config, Args> = (name: string, config: Config) => Promise<Client<Args>>;

/** The names of a module's table of contenders, in its order. */
export function namesOf<Table extends object>(table: Table): (keyof Table & string)[] {
  return Object.keys(table) as (keyof Table & string)[];
}

/** What builds contender `name`: one of the table's own keys (never its prototype's), else an error. */
export function builderOf<Builder>(table: Record<string, Builder>, name: string, kind: string): Builder {
  if (!Object.hasOwn(table, name)) throw new Error(`no ${kind} ${name}`);
  return table[name]!;
}

export interface ClientProcess<Args> {
  /** The process's id (a new one after `restart`). */
  readonly pid: number | undefined;
  run(args: Args): Promise<Run>;
  /** Ends this process and starts the contender afresh in a new one (cold: it warms up again). */
  restart(): Promise<void>;
  close(): Promise<void>;
}

/** The options of a comparison whose clients run in processes of their own. */
export interface ProcessOptions {
  /** The processes each contender's measured rounds are spread over (`MeasureOptions.spreadOver`). */
  processes: number;
}

/**
 * `MeasureOptions.spreadOver` for these clients: each stretch after the first gives every one of
 * them a fresh process, one after another. `clients` is read when a stretch starts, so it may be
 * filled after this is called.
 */
export function spreadOverProcesses(
  processes: number,
  clients: Readonly<Record<string, ClientProcess<never> | undefined>>,
): NonNullable<MeasureOptions['spreadOver']> {
  return {
    processes,
    async restart() {
      for (const client of Object.values(clients)) await client?.restart();
    },
  };
}

/** The contenders of one module of clients, each in a process of its own. */
export interface ClientProcesses<Args> {
  /** Each contender's process, by name. */
  readonly clients: Readonly<Record<string, ClientProcess<Args>>>;
  /** `MeasureOptions.spreadOver` for them all (`spreadOverProcesses`). */
  spreadOver(processes: number): NonNullable<MeasureOptions['spreadOver']>;
  /** Ends every process; never rejects. */
  close(): Promise<void>;
}

/** How every process of a comparison's clients is started. */
export interface StartOptions {
  /** Node and V8 options for each client process (e.g. `--no-memory-reducer`), every contender alike. */
  nodeOptions?: readonly string[];
}

/**
 * Starts contenders `names` of the clients `module` exports, one process each, one after another.
 * When one fails to start, those already started are ended before the error is thrown.
 */
export async function startClientProcesses<Config, Args>(
  module: URL,
  names: readonly string[],
  config: Config,
  options: StartOptions = {},
): Promise<ClientProcesses<Args>> {
  const clients: Record<string, ClientProcess<Args>> = {};
  const close = async () => {
    for (const client of Object.values(clients)) await client.close().catch(() => {});
  };
  try {
    for (const name of names) {
      clients[name] = await startClientProcess<Config, Args>(module, name, config, options);
    }
  } catch (error) {
    await close();
    throw error;
  }
  return { clients, spreadOver: (processes) => spreadOverProcesses(processes, clients), close };
}

type Reply = { ready: true } | { figure: number; cpuMs: number } | { error: string };

/** Starts contender `name` of the clients `module` exports (a file URL) in a process of its own. */
export async function startClientProcess<Config, Args>(
  module: URL,
  name: string,
  config: Config,
  options: StartOptions = {},
): Promise<ClientProcess<Args>> {
  let current = await spawnClient<Config, Args>(module, name, config, options);
  return {
    get pid() {
      return current.pid;
    },
    run: (args) => current.run(args),
    async restart() {
      await current.close();
      current = await spawnClient<Config, Args>(module, name, config, options);
    },
    close: () => current.close(),
  };
}

async function spawnClient<Config, Args>(
  module: URL,
  name: string,
  config: Config,
  { nodeOptions = [] }: StartOptions,
): Promise<Omit<ClientProcess<Args>, 'restart'>> {
  const child = spawn(process.execPath, [...nodeOptions, new URL(import.meta.url).pathname], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    serialization: 'advanced',
  });
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  const reply = () =>
    new Promise<Reply>((resolve, reject) => {
      const onMessage = (message: Reply) => {
        child.off('exit', onExit);
        if ('error' in message) reject(new Error(`${name} (client process): ${message.error}`));
        else resolve(message);
      };
      const onExit = (code: number | null) => {
        child.off('message', onMessage);
        reject(new Error(`${name}'s client process exited (${code})`));
      };
      child.once('message', onMessage);
      child.once('exit', onExit);
    });
  const ready = reply();
  child.send({ module: module.href, name, config, pinning: currentPinning() });
  try {
    await ready;
  } catch (error) {
    process.off('exit', killOnExit);
    const exited = hasExited(child) ? undefined : new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    // Gone when the error is thrown, so whoever catches it never finds the process still there.
    await exited;
    throw error;
  }
  return {
    pid: child.pid,
    async run(args) {
      const answer = reply();
      child.send({ run: args });
      const { figure, cpuMs } = (await answer) as { figure: number; cpuMs: number };
      return { figure, cpuMs };
    },
    async close() {
      process.off('exit', killOnExit);
      if (hasExited(child)) return;
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.send({ close: true });
      await exited;
    },
  };
}

/** Whether `child` has ended, by itself or by a signal. */
export function hasExited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

type Request =
  | { module: string; name: string; config: unknown; pinning?: Pinning }
  | { run: unknown }
  | { close: true };

/**
 * What a run cost the process beyond its CPU time, for BENCH_DEBUG's log: the user/system split,
 * the times the kernel took the CPU away (involuntary switches) or the process waited (voluntary),
 * page faults, and the run's garbage collections: whether a slow run lost its CPU to other work
 * (more involuntary switches), or spent longer in its own code or its own collections.
 */
function usageSince(before: NodeJS.ResourceUsage, collections: Collections): string {
  const now = process.resourceUsage();
  const since = (key: keyof NodeJS.ResourceUsage) => now[key] - before[key];
  return [
    `user ${(since('userCPUTime') / 1000).toFixed(1)}`,
    `system ${(since('systemCPUTime') / 1000).toFixed(1)}`,
    `involuntary ${since('involuntaryContextSwitches')}`,
    `voluntary ${since('voluntaryContextSwitches')}`,
    `major ${since('majorPageFault')}`,
    `minor ${since('minorPageFault')}`,
    `scavenges ${collections.minor.count} ${collections.minor.ms.toFixed(1)} ms`,
    `mark-compacts ${collections.major.count} ${collections.major.ms.toFixed(1)} ms`,
  ].join(' ');
}

interface Collections {
  minor: { count: number; ms: number };
  major: { count: number; ms: number };
}

/**
 * Counts this process's collections and their pauses from now on; `take` returns and resets them.
 * A collection's entry arrives a turn of the event loop after it, so one at the very end of a run
 * may count in the next.
 */
function watchCollections() {
  const fresh = (): Collections => ({ minor: { count: 0, ms: 0 }, major: { count: 0, ms: 0 } });
  let seen = fresh();
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const kind = (entry as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind;
      const bucket =
        kind === constants.NODE_PERFORMANCE_GC_MINOR
          ? seen.minor
          : kind === constants.NODE_PERFORMANCE_GC_MAJOR
            ? seen.major
            : undefined;
      if (!bucket) continue;
      bucket.count += 1;
      bucket.ms += entry.duration;
    }
  }).observe({ entryTypes: ['gc'] });
  return {
    take() {
      const taken = seen;
      seen = fresh();
      return taken;
    },
  };
}

function message(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}

async function serve(): Promise<void> {
  const send = (reply: Reply) => process.send!(reply);
  let client: Client<unknown> | undefined;
  let name = '';
  const collections = process.env.BENCH_DEBUG ? watchCollections() : undefined;
  process.on('message', async (request: Request) => {
    try {
      if ('module' in request) {
        if (request.pinning) adoptPinning(request.pinning);
        name = request.name;
        const { makeClient } = (await import(request.module)) as { makeClient: MakeClient<unknown, unknown> };
        client = await makeClient(request.name, request.config);
        send({ ready: true });
      } else if ('run' in request) {
        const usage = process.env.BENCH_DEBUG ? process.resourceUsage() : undefined;
        collections?.take();
        const before = process.cpuUsage();
        const figure = await client!.run(request.run);
        const { user, system } = process.cpuUsage(before);
        if (usage) process.stderr.write(`USAGE ${name} ${usageSince(usage, collections!.take())}\n`);
        send({ figure, cpuMs: (user + system) / 1000 });
      } else {
        // The parent waits for this process to exit: a close that fails must not keep it alive.
        await client?.close().catch(() => {});
        process.disconnect();
      }
    } catch (error) {
      send({ error: message(error) });
    }
  });
  // The parent going away (or closing the channel) ends the client.
  process.on('disconnect', () => process.exit(0));
}

if (process.argv[1] && import.meta.filename === process.argv[1]) await serve();
