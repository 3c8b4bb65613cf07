/**
 * The REST clients of `rest-clients.ts`, each run in a fresh process of its own to report how
 * much memory it holds after its calls: a run makes `calls` price calls, `concurrency` at a time,
 * each checked, and returns the process's resident set size then, in MB. No collection is forced
 * first: what a program that has made those calls holds is what is measured.
 */
import type { Client } from '../client-process.ts';
import { withConcurrency } from '../harness.ts';
import { checkedRestCalls, type RestArgs, type RestConfig } from './rest-clients.ts';

const MB = 1024 * 1024;

export async function makeClient(name: string, config: RestConfig): Promise<Client<RestArgs>> {
  const { call, close } = await checkedRestCalls(name, config);
  return {
    async run({ calls, concurrency }) {
      await withConcurrency(calls, concurrency, call);
      const { rss, heapUsed, heapTotal, external } = process.memoryUsage();
      if (process.env.BENCH_DEBUG) {
        const mb = (bytes: number) => (bytes / MB).toFixed(1);
        process.stderr.write(
          `MEMORY ${name} rss ${mb(rss)} heapUsed ${mb(heapUsed)} heapTotal ${mb(heapTotal)} external ${mb(external)}\n`,
        );
      }
      return rss / MB;
    },
    close,
  };
}
