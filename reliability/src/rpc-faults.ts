/**
 * Scenario `rpc-faults`: JSON-RPC calls made many at a time, so the client batches them (at most
 * 20 a request), through the emulator's node interface (a real anvil) while it answers 429s and
 * 5xx, resets connections, cuts bodies short and refuses single calls of a batch with `-32005`.
 * Every caller must get its own result — the one a clean run gives for that call — or a typed error.
 */
import { type Client, JsonRpcError } from '@blockwire/core';
import { createRpcClient, type RpcClient } from '@blockwire/rpc';
import { startEmulatorProcess } from './processes.ts';
import { Checks, type Figure, result, type Scale, type ScenarioResult } from './report.ts';
import { countingUnhandled, errorKind, isTyped, taggedClient, tally } from './sdk.ts';

const CALLS: Record<Scale, number> = { quick: 2_000, full: 6_000, soak: 6_000 };
/** Calls made in one tick: the client sends them as batches of at most 20. */
const WAVE = 50;
const WAVES_IN_FLIGHT = 4;
const FAULTS = {
  interface: 'node',
  rate: 0.1,
  statuses: [429, 500, 502, 503],
  retryAfterSeconds: 0,
  resetRate: 0.04,
  truncateRate: 0.03,
  rpcLimitRate: 0.1,
};

type Spec = { name: string; run: (rpc: RpcClient) => Promise<unknown> };

/** Calls whose answers differ from one another, so an answer given to the wrong caller shows. */
async function specsOf(rpc: RpcClient): Promise<Spec[]> {
  const specs: Spec[] = [];
  const head = Number(await rpc.request({ method: 'eth_blockNumber' }));
  const zeroSlot = `0x${'0'.repeat(64)}` as const;
  for (let n = 0; n <= head; n++) {
    const block = await rpc.getBlockByNumber(n, true);
    if (!block) continue;
    specs.push({ name: `block ${n}`, run: (r) => r.getBlockByNumber(n) });
    specs.push({ name: `full block ${n}`, run: (r) => r.getBlockByNumber(n, true) });
    specs.push({ name: `block by hash ${n}`, run: (r) => r.getBlockByHash(block.hash!) });
    specs.push({ name: `receipts ${n}`, run: (r) => r.getBlockReceipts(n) });
    specs.push({ name: `uncle ${n}`, run: (r) => r.getUncleByBlockNumberAndIndex(n, 0) });
    for (const tx of block.transactions) {
      specs.push({ name: `tx ${tx.hash}`, run: (r) => r.getTransactionByHash(tx.hash) });
      specs.push({ name: `receipt ${tx.hash}`, run: (r) => r.getTransactionReceipt(tx.hash) });
      const params = [tx.from, `0x${n.toString(16)}`];
      specs.push({ name: `balance ${params}`, run: (r) => r.request({ method: 'eth_getBalance', params }) });
      const receipt = await rpc.getTransactionReceipt(tx.hash);
      const contract = receipt?.contractAddress;
      if (contract) {
        specs.push({ name: `proof ${contract}`, run: (r) => r.getProof(contract, [zeroSlot], n) });
        for (let at = n; at <= head; at++) {
          const slot = [contract, '0x0', `0x${at.toString(16)}`];
          specs.push({
            name: `slot ${slot}`,
            run: (r) => r.request({ method: 'eth_getStorageAt', params: slot }),
          });
        }
      }
    }
  }
  specs.push({ name: 'chain id', run: (r) => r.request({ method: 'eth_chainId' }) });
  specs.push({ name: 'no such tx', run: (r) => r.getTransactionByHash(`0x${'ab'.repeat(32)}`) });
  return specs;
}

export async function rpcFaults(scale: Scale): Promise<ScenarioResult> {
  const started = performance.now();
  const count = CALLS[scale];
  const emulator = await startEmulatorProcess({ anvil: true });
  const client = taggedClient({ apiKey: emulator.apiKey, baseUrls: emulator.urls });
  try {
    const rpc = createRpcClient(client, { chain: 'eth' });
    const specs = await specsOf(rpc);
    const truth = new Map<string, string>();
    for (const spec of specs) truth.set(spec.name, JSON.stringify(await spec.run(rpc)));
    await emulator.controlCall('DELETE', '/requests');
    await emulator.controlCall('POST', '/faults', FAULTS);
    const { value: stats, unhandled } = await countingUnhandled(() =>
      callUnderFaults(client, specs, truth, count),
    );
    const { requests } = await emulator.controlCall<{ requests: { fault?: string; status: number }[] }>(
      'GET',
      '/requests?interface=node',
    );
    await emulator.controlCall('DELETE', '/faults');
    const injected: Record<string, number> = {};
    for (const entry of requests) {
      if (entry.fault) tally(injected, entry.fault === 'status' ? String(entry.status) : entry.fault);
    }
    const figures: Record<string, Figure> = {
      calls: stats.calls,
      distinctCalls: specs.length,
      ownResult: stats.right,
      wrongAnswers: stats.wrong,
      failedTyped: stats.failures,
      untypedFailures: stats.untyped,
      unhandledRejections: unhandled,
      httpRequests: requests.length,
      callsPerHttpRequest: Number((stats.calls / Math.max(1, requests.length)).toFixed(2)),
      httpFaultsInjected: injected,
    };
    const checks = new Checks();
    checks.atLeast('calls', stats.calls, count);
    checks.equal('wrongAnswers', stats.wrong, 0);
    checks.equal('untypedFailures', stats.untyped, 0);
    checks.equal('unhandledRejections', unhandled, 0);
    // Each call meets about 30 % of failing answers and is tried 3 times: most get through.
    checks.atLeast('ownResult', stats.right, Math.ceil(stats.calls * 0.9));
    checks.atLeast('callsPerHttpRequest', figures.callsPerHttpRequest as number, 2);
    return result('rpc-faults', started, figures, checks);
  } finally {
    await client.close();
    await emulator.stop();
  }
}

async function callUnderFaults(client: Client, specs: Spec[], truth: Map<string, string>, count: number) {
  const rpc = createRpcClient(client, { chain: 'eth' });
  const stats = { calls: 0, right: 0, wrong: 0, untyped: 0 };
  const failures: Record<string, number> = {};
  let issued = 0;
  const wave = async () => {
    while (issued < count) {
      const calls = Array.from(
        { length: Math.min(WAVE, count - issued) },
        (_, i) => specs[(issued + i * 7) % specs.length]!,
      );
      issued += calls.length;
      // All in one tick: one batch of 20, one of 20, one of 10.
      const settled = await Promise.allSettled(calls.map((spec) => spec.run(rpc)));
      settled.forEach((outcome, i) => {
        stats.calls++;
        if (outcome.status === 'fulfilled') {
          if (JSON.stringify(outcome.value) === truth.get(calls[i]!.name)) stats.right++;
          else stats.wrong++;
          return;
        }
        const error = outcome.reason;
        tally(failures, error instanceof JsonRpcError ? `JsonRpcError ${error.code}` : errorKind(error));
        if (!isTyped(error)) stats.untyped++;
      });
    }
  };
  await Promise.all(Array.from({ length: WAVES_IN_FLIGHT }, wave));
  return { ...stats, failures };
}
