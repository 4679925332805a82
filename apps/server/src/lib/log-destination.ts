import type { DestinationStream } from 'pino';

// Where log lines go in the running server: stdout, in batches. Each line is encoded straight into
// one reused buffer, written out when it is nearly full or BATCH_DELAY_MS after its first line. So a
// line costs a copy, not a system call, and a batch allocates nothing: the earlier set-ups (pino's
// buffered destination, then batches built as strings) allocated a fresh off-heap buffer per write,
// and on this VM the memory mapping behind those allocations (mmap/madvise/munmap churn) cost more
// than the lines themselves: 7–12 µs per request at `info` against ~2 µs now (bench/RESULTS.md).

const BATCH_BYTES = 32 * 1024;
const BATCH_DELAY_MS = 50;
/** The most bytes one UTF-16 code unit can take in UTF-8. */
const MAX_BYTES_PER_CHAR = 3;

export interface Target {
  write: (chunk: Buffer) => unknown;
  /** Bytes a stream has queued and not yet written (a stream may hold on to a written buffer meanwhile). */
  readonly writableLength?: number;
}

export class BatchedDestination implements DestinationStream {
  readonly #target: Target;
  #buffer = Buffer.allocUnsafe(BATCH_BYTES);
  #length = 0;
  #timer: NodeJS.Timeout | undefined;
  #closed = false;
  readonly #flushNow = () => {
    this.flush();
  };

  constructor(target: Target) {
    this.#target = target;
    // A crash or process.exit() still writes what is pending.
    process.on('exit', this.#flushNow);
  }

  write(line: string): void {
    const worstCase = line.length * MAX_BYTES_PER_CHAR;
    if (this.#closed || worstCase > BATCH_BYTES) {
      this.flush();
      this.#target.write(Buffer.from(line));
      return;
    }
    if (this.#length + worstCase > BATCH_BYTES) this.flush();
    this.#length += this.#buffer.write(line, this.#length);
    if (this.#timer === undefined) this.#timer = setTimeout(this.#flushNow, BATCH_DELAY_MS).unref();
  }

  /** Writes what is pending now (pino's logger.flush(callback) calls this). */
  flush(callback?: (error?: Error) => void): void {
    if (this.#timer !== undefined) {
      clearTimeout(this.#timer);
      this.#timer = undefined;
    }
    if (this.#length > 0) {
      this.#target.write(this.#buffer.subarray(0, this.#length));
      this.#length = 0;
      // A stream that could not write it all at once keeps the buffer queued: fill a new one.
      if ((this.#target.writableLength ?? 0) > 0) this.#buffer = Buffer.allocUnsafe(BATCH_BYTES);
    }
    callback?.();
  }

  /** The app is closing: writes what is pending, and any later line at once. */
  close(): void {
    this.flush();
    this.#closed = true;
    process.removeListener('exit', this.#flushNow);
  }
}

/**
 * stdout, batched, through Node's own process.stdout: synchronous for files and terminals; on a pipe
 * it writes at once and queues only what a full pipe cannot take, so a slow reader never blocks the
 * event loop (pino's synchronous destination sleeps and retries instead).
 */
export function stdoutDestination(): BatchedDestination {
  return new BatchedDestination(process.stdout);
}
