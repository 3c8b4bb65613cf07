/**
 * A real anvil behind the node interface: started on a free loopback port, then seeded with a
 * few blocks of transactions (value transfers, a contract deployment, calls that emit logs) so
 * every method of the contract returns data. Block timestamps are pinned, so the chain (hashes
 * included) is the same on every run.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { createRandom } from '../random.js';
import { type FixtureContracts, installFixtureContracts } from './contracts.js';

export interface Anvil {
  url: string;
  /** Facts about the seeded chain, for tests and the README. */
  seeded: SeededChain;
  /** Mines `blocks` empty blocks; resolves to the new block number. */
  mine(blocks: number): Promise<number>;
  /** Rewinds the chain to its state right after seeding; resolves to its block number. */
  reset(): Promise<number>;
  close(): Promise<void>;
}

export interface SeededChain {
  accounts: string[];
  /** The contract deployed at start: each call stores a counter and emits `Ping(address)`. */
  contract: string;
  /** ERC-20 tokens, a contract that is not one, one that reverts: set at fixed addresses (./contracts.ts). */
  contracts: FixtureContracts;
  transactionHashes: string[];
  blockNumber: number;
}

const GENESIS_TIMESTAMP = 1_735_689_600; // 2025-01-01T00:00:00Z
/** keccak256("Ping(address)"). */
export const PING_TOPIC = '0xfee8775ba9b0f00b87db291c081d99de518bdebb6ccfa2482cc5882fe69307e5';

/** The anvil binary of this platform, from `@foundry-rs/anvil`'s platform package. */
export function resolveAnvilBinary(): string {
  const arch = { x64: 'amd64', arm64: 'arm64' }[process.arch as string];
  const platformPackage = `@foundry-rs/anvil-${process.platform}-${arch ?? process.arch}`;
  const require = createRequire(import.meta.url);
  const candidates: string[] = [];
  for (const from of [() => require.resolve('@foundry-rs/anvil/package.json'), () => import.meta.url]) {
    try {
      const local = createRequire(from());
      const name = process.platform === 'win32' ? 'anvil.exe' : 'anvil';
      const binary = join(dirname(local.resolve(`${platformPackage}/package.json`)), 'bin', name);
      if (existsSync(binary)) return binary;
      candidates.push(binary);
    } catch {
      // Not resolvable from here: try the next place.
    }
  }
  throw new Error(
    `Cannot find the anvil binary (${platformPackage}, a dependency of @foundry-rs/anvil)${candidates.length ? ` at ${candidates.join(', ')}` : ''}. ` +
      'Install @foundry-rs/anvil for this platform, or start the emulator without the node interface (--no-anvil / anvil: false).',
  );
}

export async function startAnvil(options: { seed: number; binary?: string }): Promise<Anvil> {
  const binary = options.binary ?? resolveAnvilBinary();
  const child = spawn(
    binary,
    [
      '--host',
      '127.0.0.1',
      '--port',
      '0',
      '--timestamp',
      String(GENESIS_TIMESTAMP),
      '--no-request-size-limit',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  const watchdog = child.pid === undefined ? undefined : startWatchdog(child.pid);
  child.once('exit', () => watchdog?.kill());
  const close = async () => {
    process.removeListener('exit', killOnExit);
    await stopChild(child);
    // Wait for it too, so close() leaves no process behind, not even an unreaped one.
    if (watchdog) await stopChild(watchdog);
  };
  try {
    const url = await waitForListening(child);
    const seeded = await seedChain(url, options.seed);
    // A snapshot can be reverted to once: take a new one after each revert.
    let snapshot = (await rpc(url, 'evm_snapshot')) as string;
    const blockNumber = async () => Number(await rpc(url, 'eth_blockNumber'));
    return {
      url,
      seeded,
      async mine(blocks) {
        await rpc(url, 'anvil_mine', [`0x${blocks.toString(16)}`]);
        return blockNumber();
      },
      async reset() {
        if (!(await rpc(url, 'evm_revert', [snapshot])))
          throw new Error('anvil could not revert to the seeded chain');
        snapshot = (await rpc(url, 'evm_snapshot')) as string;
        return blockNumber();
      },
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

/**
 * A process that kills anvil when this one dies without closing it: a signal with no handler or
 * SIGKILL skips the 'exit' event, and anvil would live on. Its stdin is a pipe from this process,
 * which the OS closes when this process is gone, however it went.
 */
function startWatchdog(anvilPid: number): ChildProcess {
  const script = `process.stdin.resume();process.stdin.on('end',()=>{try{process.kill(${anvilPid},'SIGKILL')}catch{}process.exit(0)})`;
  const watchdog = spawn(process.execPath, ['-e', script], { stdio: ['pipe', 'ignore', 'ignore'] });
  // Neither the watchdog nor its pipe may keep this process running.
  watchdog.unref();
  (watchdog.stdin as unknown as { unref?: () => void } | null)?.unref?.();
  watchdog.on('error', () => {});
  return watchdog;
}

function waitForListening(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => fail(new Error(`anvil did not start within 10 s:\n${output}`)), 10_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Listening on (\S+:\d+)/.exec(output);
      if (match) {
        cleanup();
        // Keep draining anvil's output so it never blocks on a full pipe.
        child.stdout?.resume();
        child.stderr?.resume();
        resolve(`http://${match[1]}`);
      }
    };
    const onExit = (code: number | null) =>
      fail(new Error(`anvil exited (code ${code}) before it was ready:\n${output}`));
    const onError = (error: Error) => fail(new Error(`anvil could not be started: ${error.message}`));
    function cleanup() {
      clearTimeout(timer);
      child.stdout?.off('data', onData);
      child.stderr?.off('data', onData);
      child.off('exit', onExit);
      child.off('error', onError);
    }
    function fail(error: Error) {
      cleanup();
      reject(error);
    }
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', onExit);
    child.once('error', onError);
  });
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 2_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

async function rpc(url: string, method: string, params: unknown[] = []): Promise<unknown> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const body = (await response.json()) as { result?: unknown; error?: { message: string } };
  if (body.error) throw new Error(`anvil ${method} failed: ${body.error.message}`);
  return body.result;
}

// Creation code: sstore(0, 42), then return the runtime below.
// Runtime: sstore(0, sload(0) + 1); mstore(0, caller()); log1(0, 32, PING_TOPIC); stop.
const RUNTIME = `600054600101600055336000527f${PING_TOPIC.slice(2)}60206000a100`;
const RUNTIME_LENGTH = (RUNTIME.length / 2).toString(16).padStart(2, '0');
const CREATION = `0x602a60005560${RUNTIME_LENGTH}601160003960${RUNTIME_LENGTH}6000f3${RUNTIME}`;

async function seedChain(url: string, seed: number): Promise<SeededChain> {
  const random = createRandom(seed, 'anvil');
  const accounts = (await rpc(url, 'eth_accounts')) as string[];
  const hashes: string[] = [];
  let timestamp = GENESIS_TIMESTAMP;
  const mine = async () => {
    timestamp += 12;
    await rpc(url, 'evm_mine', [timestamp]);
  };
  const send = async (tx: Record<string, string>) => {
    hashes.push((await rpc(url, 'eth_sendTransaction', [tx])) as string);
  };

  await rpc(url, 'evm_setAutomine', [false]);
  await send({ from: accounts[0]!, data: CREATION, gas: '0x30000' });
  await mine();
  const deployReceipt = (await rpc(url, 'eth_getTransactionReceipt', [hashes[0]])) as {
    contractAddress: string;
  };
  const contract = deployReceipt.contractAddress;
  for (let block = 0; block < 4; block++) {
    const count = random.int(2, 4);
    for (let i = 0; i < count; i++) {
      const from = accounts[random.int(0, 4)]!;
      if (random.chance(0.4)) {
        await send({ from, to: contract, data: '0x', gas: '0x20000' });
      } else {
        const to = accounts[random.int(5, 9)]!;
        const wei = BigInt(random.int(1, 5_000)) * 10n ** 15n;
        await send({ from, to, value: `0x${wei.toString(16)}` });
      }
    }
    await mine();
  }
  // A couple of empty blocks on top, then back to mining on demand for callers who send more.
  await mine();
  await mine();
  await rpc(url, 'evm_setAutomine', [true]);
  // Code and storage only, no transaction: the blocks above keep their hashes.
  const contracts = await installFixtureContracts((method, params) => rpc(url, method, params));
  const blockNumber = Number(await rpc(url, 'eth_blockNumber'));
  return { accounts, contract, contracts, transactionHashes: hashes, blockNumber };
}
