/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/require-node-api-error --
   Test harness: runs n8n for the e2e tests; none of it ships (package.json#files is dist). */
/**
 * n8n in queue mode on this machine (n8n 2.41.1): one main instance (`n8n start`: editor, REST and
 * public API, activation), one webhook processor (`n8n webhook`: production webhooks), and
 * workers (`n8n worker`: every execution), sharing a PostgreSQL database, a Redis queue and one
 * encryption key. Each process runs in a process group of its own on 127.0.0.1 ports, and all are
 * stopped by `stop()`, or killed if the test process exits first.
 *
 * Facts this relies on (read in n8n 2.41.1's source, then seen running):
 * - `EXECUTIONS_MODE=queue` puts executions on Redis (Bull) for workers; `n8n webhook` refuses to
 *   start without it; a worker sets it itself;
 * - the production webhook URLs n8n gives nodes (what the Blockwire Trigger registers) come from
 *   N8N_WEBHOOK_URL (WEBHOOK_URL is its deprecated name): it must lead to the webhook processor;
 * - N8N_DISABLE_PRODUCTION_MAIN_PROCESS=true keeps production webhooks off the main instance;
 * - OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS=true sends manual runs to workers too (n8n 3 will always);
 * - main and workers start task runners, each needing a broker port (N8N_RUNNERS_BROKER_PORT);
 * - a worker serves /healthz/readiness only with QUEUE_HEALTH_CHECK_ACTIVE=true, on
 *   QUEUE_HEALTH_CHECK_PORT and N8N_WORKER_SERVER_ADDRESS (default `::`, every interface);
 * - binary data defaults to the database in queue mode (N8N_DEFAULT_BINARY_DATA_MODE);
 * - the main instance migrates the database: the others start once it is ready.
 */
import { join } from 'node:path';
import type { N8nInstall } from './install-n8n.ts';
import {
  freePort,
  type N8nEnvironment,
  type N8nProcess,
  prepareN8n,
  removeEnvironment,
  startN8nProcess,
} from './n8n.ts';

export interface QueueDatabase {
  host: string;
  port: number;
  database: string;
  user: string;
  password?: string;
}

export interface QueueRedis {
  host: string;
  port: number;
}

/**
 * What every process of one n8n in queue mode must share: the execution mode, Redis, PostgreSQL,
 * the encryption key, the public webhook URL, and the folder this package is installed in as a
 * custom extension. What a team copies (see the README).
 */
export function queueModeEnv(options: {
  database: QueueDatabase;
  redis: QueueRedis;
  encryptionKey: string;
  webhookUrl: string;
  customExtensions: string;
}): Record<string, string> {
  return {
    EXECUTIONS_MODE: 'queue',
    QUEUE_BULL_REDIS_HOST: options.redis.host,
    QUEUE_BULL_REDIS_PORT: String(options.redis.port),
    DB_TYPE: 'postgresdb',
    DB_POSTGRESDB_HOST: options.database.host,
    DB_POSTGRESDB_PORT: String(options.database.port),
    DB_POSTGRESDB_DATABASE: options.database.database,
    DB_POSTGRESDB_USER: options.database.user,
    DB_POSTGRESDB_PASSWORD: options.database.password ?? '',
    N8N_ENCRYPTION_KEY: options.encryptionKey,
    N8N_WEBHOOK_URL: options.webhookUrl,
    N8N_DISABLE_PRODUCTION_MAIN_PROCESS: 'true',
    OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS: 'true',
    // Every process loads the nodes from its own disk: a worker without them fails each
    // execution with "Unrecognized node type".
    N8N_CUSTOM_EXTENSIONS: options.customExtensions,
  };
}

export type QueueRole = 'main' | 'webhook' | 'worker';

export interface QueueProcessPlan {
  /** `main`, `webhook`, `worker-1`, `worker-2`… */
  name: string;
  role: QueueRole;
  args: string[];
  env: NodeJS.ProcessEnv;
  url: string;
  readyUrl: string;
}

export interface N8nQueueEnvironment {
  /** The main instance's environment: its URL, and what `runN8nCli` (import, export) runs with. */
  readonly main: N8nEnvironment;
  /** Where the webhook processor listens (N8N_WEBHOOK_URL must lead there). */
  readonly webhookProcessorUrl: string;
  readonly processes: QueueProcessPlan[];
}

/**
 * Plans one n8n in queue mode: the main instance's user folder with this package's build (see
 * `prepareN8n`), the shared environment, and each process's ports and user folder. `webhookUrl`
 * is the public base URL of the webhook processor; by default the processor itself.
 */
export async function prepareN8nQueue(options: {
  packageDir: string;
  /** Installed beside it (n8n-nodes-blockwire-postgres). */
  morePackageDirs?: readonly string[];
  database: QueueDatabase;
  redis: QueueRedis;
  workers?: number;
  webhookUrl?: string;
}): Promise<N8nQueueEnvironment> {
  const webhookPort = await freePort();
  const webhookProcessorUrl = `http://127.0.0.1:${webhookPort}`;
  const webhookUrl = options.webhookUrl ?? `${webhookProcessorUrl}/`;
  const prepared = await prepareN8n({
    packageDir: options.packageDir,
    morePackageDirs: options.morePackageDirs,
    webhookUrl,
  });
  const shared: NodeJS.ProcessEnv = {
    ...Object.fromEntries(Object.entries(prepared.env).filter(([name]) => !name.startsWith('DB_SQLITE_'))),
    ...queueModeEnv({
      database: options.database,
      redis: options.redis,
      encryptionKey: String(prepared.env.N8N_ENCRYPTION_KEY),
      webhookUrl,
      customExtensions: String(prepared.env.N8N_CUSTOM_EXTENSIONS),
    }),
    // Workers answer health checks on 127.0.0.1 only (their readiness tells the harness they are up).
    QUEUE_HEALTH_CHECK_ACTIVE: 'true',
    N8N_WORKER_SERVER_ADDRESS: '127.0.0.1',
    N8N_GRACEFUL_SHUTDOWN_TIMEOUT: '10',
  };
  const main: N8nEnvironment = { ...prepared, env: shared };
  const ownFolder = (name: string) => ({ N8N_USER_FOLDER: join(main.root, name), HOME: main.root });
  const processes: QueueProcessPlan[] = [
    {
      name: 'main',
      role: 'main',
      args: ['start'],
      env: main.env,
      url: main.url,
      readyUrl: `${main.url}/healthz/readiness`,
    },
    {
      name: 'webhook',
      role: 'webhook',
      args: ['webhook'],
      env: {
        ...shared,
        ...ownFolder('webhook'),
        N8N_PORT: String(webhookPort),
        N8N_RUNNERS_BROKER_PORT: String(await freePort()),
      },
      url: webhookProcessorUrl,
      readyUrl: `${webhookProcessorUrl}/healthz/readiness`,
    },
  ];
  for (let n = 1; n <= (options.workers ?? 2); n++) {
    const healthPort = await freePort();
    processes.push({
      name: `worker-${n}`,
      role: 'worker',
      args: ['worker'],
      env: {
        ...shared,
        ...ownFolder(`worker-${n}`),
        N8N_PORT: String(await freePort()),
        QUEUE_HEALTH_CHECK_PORT: String(healthPort),
        N8N_RUNNERS_BROKER_PORT: String(await freePort()),
      },
      url: `http://127.0.0.1:${healthPort}`,
      readyUrl: `http://127.0.0.1:${healthPort}/healthz/readiness`,
    });
  }
  return { main, webhookProcessorUrl, processes };
}

export interface N8nQueue {
  /** The main instance: editor, REST and public API. */
  readonly url: string;
  readonly webhookProcessorUrl: string;
  /** Every process, main first. */
  readonly processes: (N8nProcess & { name: string; role: QueueRole })[];
  process(name: string): N8nProcess & { name: string; role: QueueRole };
  /** Stops every process (workers and the webhook processor first); safe to call twice. */
  stop(): Promise<void>;
}

/**
 * Starts the planned processes: the main instance first (it migrates the database), then the
 * webhook processor and the workers side by side; resolves when every one is ready. If one does
 * not start, the ones started are stopped and the error names it.
 */
export async function startN8nQueue(
  install: N8nInstall,
  environment: N8nQueueEnvironment,
  timeoutMs = 180_000,
): Promise<N8nQueue> {
  const started: (N8nProcess & { name: string; role: QueueRole })[] = [];
  const killAll = () => {
    for (const child of started) child.kill();
  };
  // A test runner that dies before its afterAll must not leave n8n processes behind.
  process.once('exit', killAll);
  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      const [main, ...others] = started;
      await Promise.all(others.map((child) => child.stop()));
      await main?.stop();
      process.removeListener('exit', killAll);
    })();
    return stopping;
  };
  const launch = async (plan: QueueProcessPlan) => {
    const child = await startN8nProcess(
      install,
      { env: plan.env, cwd: environment.main.root, args: plan.args, url: plan.url, readyUrl: plan.readyUrl },
      timeoutMs,
    );
    const named = Object.assign(child, { name: plan.name, role: plan.role });
    started.push(named);
    return named;
  };
  const [mainPlan, ...otherPlans] = environment.processes;
  try {
    await launch(mainPlan!);
    const others = await Promise.allSettled(otherPlans.map(launch));
    const failed = others.find((outcome) => outcome.status === 'rejected');
    if (failed) throw (failed as PromiseRejectedResult).reason;
  } catch (error) {
    await stop();
    throw error;
  }
  started.sort(
    (a, b) =>
      environment.processes.findIndex((plan) => plan.name === a.name) -
      environment.processes.findIndex((plan) => plan.name === b.name),
  );
  return {
    url: environment.main.url,
    webhookProcessorUrl: environment.webhookProcessorUrl,
    processes: started,
    process(name) {
      const found = started.find((child) => child.name === name);
      if (!found) throw new Error(`no n8n process named ${name}`);
      return found;
    },
    stop,
  };
}

/** Removes the user folders of every process (they live under the main instance's root). */
export function removeQueueEnvironment(environment: N8nQueueEnvironment | undefined): void {
  removeEnvironment(environment?.main);
}

/**
 * Which worker ran each execution, from the workers' own log lines ("Worker started execution
 * <id> (job <n>)", n8n's scaling log at level info).
 */
export function executionsByWorker(queue: N8nQueue): Map<string, string> {
  const ranBy = new Map<string, string>();
  for (const worker of queue.processes.filter((child) => child.role === 'worker')) {
    for (const match of worker.output().matchAll(/Worker started execution (\d+) \(job/g)) {
      ranBy.set(match[1]!, worker.name);
    }
  }
  return ranBy;
}
