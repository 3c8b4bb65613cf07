/**
 * The stdio transport, bounded so that no client can take the server down: a frame over
 * `maxFrameBytes` is discarded as it arrives (never buffered whole) and answered with an error;
 * reading stops while the answers not yet taken by the client exceed `highWaterBytes`, or while
 * `maxInFlight` requests await their answer, and goes on when they drain. Every message sent
 * passes `redact` first. The SDK's own stdio transport buffers any line (a 20 MB one ends the
 * process) and reads on however much output piles up unread.
 */
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, type JSONRPCMessage, type RequestId } from '@modelcontextprotocol/sdk/types.js';
import { checkFrame, frameError, idFromPrefix } from './frames.js';

export interface StdioLimits {
  /** The longest frame (one line) taken, in bytes; default 4 MiB, as over HTTP. */
  maxFrameBytes?: number;
  /** Unsent output above which reading pauses, in bytes; default 1 MiB. */
  highWaterBytes?: number;
  /** Requests read but not yet answered above which reading pauses; default 16. */
  maxInFlight?: number;
}

export const STDIO_LIMITS: Required<StdioLimits> = {
  maxFrameBytes: 4 * 1024 * 1024,
  highWaterBytes: 1024 * 1024,
  maxInFlight: 16,
};

/** How much of a discarded frame is kept to read its `id` from. */
const ID_PREFIX_BYTES = 4096;
const NEWLINE = 0x0a;

/**
 * What the transport reads frames from and writes them to: process.stdin / process.stdout or any
 * Node stream. Declared by shape, so the published types need no @types/node.
 */
// biome-ignore lint/suspicious/noExplicitAny: a Node stream passes its listeners any arguments
type Listener = (...args: any[]) => void;
export interface FrameInput {
  on(event: string, listener: Listener): unknown;
  off(event: string, listener: Listener): unknown;
  pause(): unknown;
  resume(): unknown;
}
export interface FrameOutput {
  on(event: string, listener: Listener): unknown;
  off(event: string, listener: Listener): unknown;
  once(event: string, listener: Listener): unknown;
  write(chunk: string): boolean;
  readonly writableLength: number;
}

export class BoundedStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  readonly #input: FrameInput;
  readonly #output: FrameOutput;
  readonly #limits: Required<StdioLimits>;
  readonly #redact: (message: JSONRPCMessage) => JSONRPCMessage;
  /** Bytes read and not yet split into frames (at most one chunk while reading is paused). */
  #unread: Buffer[] = [];
  /** The frame being read: its parts so far, or, once over the limit, the start kept for its id. */
  #frame: Buffer[] = [];
  #frameBytes = 0;
  #discarding: Buffer | undefined;
  #inFlight = new Set<RequestId>();
  #closed = false;
  #drained: Promise<void> | undefined;

  constructor(options: {
    input?: FrameInput;
    output?: FrameOutput;
    limits?: StdioLimits;
    redact?: (message: JSONRPCMessage) => JSONRPCMessage;
  }) {
    this.#input = options.input ?? process.stdin;
    this.#output = options.output ?? process.stdout;
    this.#limits = { ...STDIO_LIMITS, ...options.limits };
    this.#redact = options.redact ?? ((message) => message);
  }

  async start(): Promise<void> {
    this.#input.on('data', this.#onData);
    this.#input.on('error', this.#onError);
    this.#output.on('drain', this.#pump);
    this.#output.on('error', this.#onError);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#input.off('data', this.#onData);
    this.#input.off('error', this.#onError);
    this.#output.off('drain', this.#pump);
    this.#output.off('error', this.#onError);
    this.#input.pause();
    this.#unread = [];
    this.#frame = [];
    this.onclose?.();
  }

  send(message: JSONRPCMessage): Promise<void> {
    if ('id' in message && ('result' in message || 'error' in message)) {
      if (message.id !== undefined && this.#inFlight.delete(message.id)) queueMicrotask(this.#pump);
    }
    return this.#write(this.#redact(message));
  }

  #write(message: JSONRPCMessage | ReturnType<typeof frameError>): Promise<void> {
    if (this.#closed) return Promise.resolve();
    if (this.#output.write(`${JSON.stringify(message)}\n`)) return Promise.resolve();
    // One wait for all writers: reading is already paused above the high-water mark.
    this.#drained ??= new Promise<void>((resolve) =>
      this.#output.once('drain', () => {
        this.#drained = undefined;
        resolve();
      }),
    );
    return this.#drained;
  }

  #onData = (chunk: Buffer): void => {
    this.#unread.push(chunk);
    this.#pump();
  };

  #onError = (error: Error): void => this.onerror?.(error);

  #blocked(): boolean {
    return (
      this.#output.writableLength > this.#limits.highWaterBytes ||
      this.#inFlight.size >= this.#limits.maxInFlight
    );
  }

  /** Splits what was read into frames and hands them on, until done or blocked. */
  #pump = (): void => {
    while (!this.#closed && this.#unread.length > 0 && !this.#blocked()) {
      const chunk = this.#unread[0]!;
      const newline = chunk.indexOf(NEWLINE);
      const part = newline < 0 ? chunk : chunk.subarray(0, newline);
      if (newline < 0) this.#unread.shift();
      else this.#unread[0] = chunk.subarray(newline + 1);
      this.#take(part);
      if (newline >= 0) this.#endFrame();
    }
    if (this.#closed) return;
    if (this.#unread.length > 0 || this.#blocked()) this.#input.pause();
    else this.#input.resume();
  };

  #take(part: Buffer): void {
    if (part.length === 0) return;
    if (this.#discarding) {
      if (this.#discarding.length < ID_PREFIX_BYTES) {
        this.#discarding = Buffer.concat([this.#discarding, part.subarray(0, ID_PREFIX_BYTES)]);
      }
      return;
    }
    if (this.#frameBytes + part.length > this.#limits.maxFrameBytes) {
      this.#discarding = Buffer.concat([...this.#frame, part]).subarray(0, ID_PREFIX_BYTES);
      this.#frame = [];
      this.#frameBytes = 0;
      return;
    }
    // Copied: a chunk's slice would keep the whole chunk alive.
    this.#frame.push(Buffer.from(part));
    this.#frameBytes += part.length;
  }

  #endFrame(): void {
    if (this.#discarding) {
      const id = idFromPrefix(this.#discarding.toString('utf8'));
      this.#discarding = undefined;
      void this.#write(
        frameError(
          id,
          ErrorCode.InvalidRequest,
          `Invalid request: the message is larger than ${this.#limits.maxFrameBytes} bytes, the most this server reads in one line; it was not read.`,
        ),
      );
      return;
    }
    const text = Buffer.concat(this.#frame).toString('utf8').replace(/\r$/, '');
    this.#frame = [];
    this.#frameBytes = 0;
    if (text.trim() === '') return;
    const checked = checkFrame(text);
    if ('refused' in checked) {
      void this.#write(this.#redact(checked.refused as JSONRPCMessage));
      return;
    }
    const { message } = checked;
    if ('method' in message && 'id' in message) this.#inFlight.add(message.id);
    this.onmessage?.(message);
  }
}
