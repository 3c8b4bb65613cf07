/**
 * Test support (not part of the build): a webhook receiver on 127.0.0.1, a bounded poll, and a
 * second, independent keccak256 written from the Keccak reference so signatures are checked
 * against something other than the code that made them.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

// --- keccak256 (Keccak-f[1600], rate 1088 bits, Keccak padding 0x01 … 0x80) ---

const MASK = (1n << 64n) - 1n;
const rotl = (value: bigint, shift: number) =>
  shift === 0 ? value : ((value << BigInt(shift)) | (value >> BigInt(64 - shift))) & MASK;

/** Round constants from the reference LFSR (x^8 + x^6 + x^5 + x^4 + 1). */
const ROUND_CONSTANTS: bigint[] = (() => {
  let register = 1;
  const bit = () => {
    const out = register & 1;
    register <<= 1;
    if (register & 0x100) register ^= 0x171;
    return out;
  };
  return Array.from({ length: 24 }, () => {
    let constant = 0n;
    for (let j = 0; j < 7; j++) if (bit()) constant |= 1n << BigInt(2 ** j - 1);
    return constant;
  });
})();

/** Rotation offsets ρ and lane moves π, from the reference definitions. */
const ROTATIONS: number[] = (() => {
  const offsets = new Array<number>(25).fill(0);
  let x = 1;
  let y = 0;
  for (let t = 0; t < 24; t++) {
    offsets[x + 5 * y] = (((t + 1) * (t + 2)) / 2) % 64;
    [x, y] = [y, (2 * x + 3 * y) % 5];
  }
  return offsets;
})();

function permute(state: bigint[]): void {
  for (let round = 0; round < 24; round++) {
    const c = [0, 1, 2, 3, 4].map(
      (x) => state[x]! ^ state[x + 5]! ^ state[x + 10]! ^ state[x + 15]! ^ state[x + 20]!,
    );
    for (let x = 0; x < 5; x++) {
      const d = c[(x + 4) % 5]! ^ rotl(c[(x + 1) % 5]!, 1);
      for (let y = 0; y < 5; y++) state[x + 5 * y]! ^= d;
    }
    const b = new Array<bigint>(25).fill(0n);
    for (let x = 0; x < 5; x++) {
      for (let y = 0; y < 5; y++)
        b[y + 5 * ((2 * x + 3 * y) % 5)] = rotl(state[x + 5 * y]!, ROTATIONS[x + 5 * y]!);
    }
    for (let x = 0; x < 5; x++) {
      for (let y = 0; y < 5; y++) {
        state[x + 5 * y] = b[x + 5 * y]! ^ (~b[((x + 1) % 5) + 5 * y]! & MASK & b[((x + 2) % 5) + 5 * y]!);
      }
    }
    state[0]! ^= ROUND_CONSTANTS[round]!;
  }
}

export function referenceKeccak256(text: string): string {
  const rate = 136;
  const input = new TextEncoder().encode(text);
  const padded = new Uint8Array(Math.ceil((input.length + 1) / rate) * rate);
  padded.set(input);
  padded[input.length]! ^= 0x01;
  padded[padded.length - 1]! ^= 0x80;
  const state = new Array<bigint>(25).fill(0n);
  for (let offset = 0; offset < padded.length; offset += rate) {
    for (let lane = 0; lane < rate / 8; lane++) {
      let value = 0n;
      for (let i = 7; i >= 0; i--) value = (value << 8n) | BigInt(padded[offset + lane * 8 + i]!);
      state[lane]! ^= value;
    }
    permute(state);
  }
  let out = '';
  for (let lane = 0; lane < 4; lane++) {
    for (let i = 0; i < 8; i++)
      out += Number((state[lane]! >> BigInt(8 * i)) & 0xffn)
        .toString(16)
        .padStart(2, '0');
  }
  return out;
}

// --- a webhook receiver ---

export interface ReceivedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  raw: string;
  /** The parsed body; undefined for an empty one (the verification POST). */
  // biome-ignore lint/suspicious/noExplicitAny: test payloads are inspected freely
  json: any;
}

export interface Receiver {
  url: string;
  requests: ReceivedRequest[];
  /** Deliveries with a body (verification POSTs left out). */
  deliveries(): ReceivedRequest[];
  /** Decides the status of each request; default 200. */
  respond(decide: (request: ReceivedRequest) => number): void;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  let decide: (request: ReceivedRequest) => number = () => 200;
  const requests: ReceivedRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const request: ReceivedRequest = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        raw,
        json: raw === '' ? undefined : JSON.parse(raw),
      };
      requests.push(request);
      res.statusCode = decide(request);
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    requests,
    deliveries: () => requests.filter((request) => request.raw !== ''),
    respond(next) {
      decide = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Polls until `check` returns a truthy value; fails after `timeoutMs`. */
export async function waitFor<T>(
  check: () => T | undefined | false,
  timeoutMs = 10_000,
  what = 'condition',
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  while (true) {
    const value = check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
