import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus, getPriority, loadavg, setPriority, totalmem } from 'node:os';

export function machineDescription(): string {
  return `${cpus().length} × ${cpuModel()}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, ${process.platform} ${process.arch}`;
}

/**
 * The CPU's model name, with its family, model and stepping where Linux lists them: a virtual
 * machine often names only the vendor's line ("AMD EPYC"), which spans generations whose figures
 * differ (bench/README.md: the same code measured 0.99 on one and 0.81 on another).
 */
export function cpuModel(cpuinfo = readCpuinfo()): string {
  const field = (name: string) => new RegExp(`^${name}\\s*:\\s*(.+)$`, 'm').exec(cpuinfo)?.[1]?.trim();
  const name = field('model name') ?? cpus()[0]?.model.trim() ?? 'unknown CPU';
  const family = field('cpu family');
  const model = field('model');
  const stepping = field('stepping');
  if (family === undefined || model === undefined) return name;
  return `${name} (family ${family}, model ${model}${stepping === undefined ? '' : `, stepping ${stepping}`})`;
}

function readCpuinfo(): string {
  try {
    return readFileSync('/proc/cpuinfo', 'utf8');
  } catch {
    return '';
  }
}

/** The commit measured, with `-dirty` when the work tree has changes. */
export function commitDescription(cwd: string): string {
  try {
    const commit = execFileSync('git', ['rev-parse', '--short=12', 'HEAD'], { cwd, encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], {
      cwd,
      encoding: 'utf8',
    });
    return dirty.trim() ? `${commit}-dirty` : commit;
  } catch {
    return 'unknown (not a git checkout)';
  }
}

export const loadAverage = () => loadavg()[0] ?? 0;

/** The niceness a full run asks for: other jobs on a shared machine then take less of its time. */
export const BENCH_NICENESS = -10;

/**
 * Asks for a higher scheduling priority, before any server, worker or child process starts (on
 * Linux they inherit it from the thread that makes them): every contender runs in this process
 * or a child of it and calls servers it starts, so all of them gain alike, and a burst from another job on the
 * machine lands less often in the middle of one contender's run. Only root may raise it; then
 * the run goes on at the priority it has; a run started with a niceness above 0 (`nice -n 19 pnpm
 * bench`, on a machine shared with work that comes first) keeps it. Returns the niceness the run has.
 */
export function raisePriority(): number {
  // Started under `nice`: whoever started it wants it to yield to the machine's other jobs.
  if (getPriority(0) > 0) return getPriority(0);
  try {
    setPriority(0, BENCH_NICENESS);
  } catch {
    // Not allowed (not root): measured at the usual priority, and the results say so.
  }
  return getPriority(0);
}

/** Which CPUs the client side and the servers run on, when a full run could pin them apart. */
export interface Pinning {
  /**
   * This process, and what it starts without moving it: the client processes of `rest-overhead`,
   * `json-rpc` and `webhook-intake`, and n8n, the client of `n8n-items`.
   */
  client: string;
  /**
   * The servers the bench starts as processes: REST, Solana, anvil, its proxy, the webhook sender,
   * the emulator of `n8n-items`.
   */
  servers: string;
}

let pinning: Pinning | undefined;

/**
 * Keeps the client and the servers on CPUs of their own (Linux's `taskset`, every thread): on a
 * machine of two cores, a server woken on the client's core takes its time in slices that land
 * in one contender's run and not the other's, and the client's CPU per call swings ±25 % round
 * to round. Pinned apart, each side keeps its core's caches and the swing narrows. With fewer
 * than two cores, or without taskset, nothing is pinned and the results say so.
 */
export function pinClientAndServers(): Pinning | undefined {
  const count = cpus().length;
  if (count < 2) return undefined;
  const split = { client: '0', servers: count === 2 ? '1' : `1-${count - 1}` };
  if (!pinProcess(process.pid, split.client)) return undefined;
  pinning = split;
  return pinning;
}

/** The pinning this process keeps, for a client process of the bench to keep the same. */
export function currentPinning(): Pinning | undefined {
  return pinning;
}

/** In a client process of the bench: pins the servers it starts where the bench's own go. */
export function adoptPinning(from: Pinning): void {
  pinning = from;
}

/** Moves a server the bench started (every thread of it) to the servers' CPUs, when pinning is on. */
export function pinServer(pid: number | undefined): void {
  if (pinning && pid !== undefined) pinProcess(pid, pinning.servers);
}

/** Every thread of process `pid` on the CPUs of `list` (e.g. `1-3`); false where that did not take. */
export function pinProcess(pid: number, list: string): boolean {
  try {
    execFileSync('taskset', ['--all-tasks', '--cpu-list', '--pid', list, String(pid)], { stdio: 'ignore' });
  } catch {
    return false;
  }
  // taskset --all-tasks exits with 0 for a process that does not exist: the kernel's word decides.
  return allowedCpus(pid) === list;
}

/** The CPUs process `pid` may run on, as Linux lists them (`0`, `1-3`), or undefined. */
export function allowedCpus(pid: number): string | undefined {
  try {
    return /Cpus_allowed_list:\s*(\S+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  } catch {
    return undefined;
  }
}
