import type { DestinationStream } from 'pino';

// Where log lines go in the running server: stdout, in batches. Lines are collected in memory and
// written with one write per batch (when it reaches MAX_BATCH_CHARS, or BATCH_DELAY_MS after its
// first line), so the write costs a fraction of a microsecond per line instead of one system call
// each. Handing each line straight to pino's destination with a minLength costs more than the
// line itself: it measures the whole pending buffer's byte length at every write (bench/RESULTS.md).

const MAX_BATCH_CHARS = 16_384;
const BATCH_DELAY_MS = 50;

interface Target {
  write: (text: string) => unknown;
}

export class BatchedDestination implements DestinationStream {
  readonly #target: Target;
  #pending = '';
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
    if (this.#closed) {
      this.#target.write(line);
      return;
    }
    this.#pending += line;
    if (this.#pending.length >= MAX_BATCH_CHARS) this.flush();
    else if (this.#timer === undefined) this.#timer = setTimeout(this.#flushNow, BATCH_DELAY_MS).unref();
  }

  /** Writes what is pending now (pino's logger.flush(callback) calls this). */
  flush(callback?: (error?: Error) => void): void {
    if (this.#timer !== undefined) {
      clearTimeout(this.#timer);
      this.#timer = undefined;
    }
    if (this.#pending !== '') {
      const text = this.#pending;
      this.#pending = '';
      this.#target.write(text);
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
