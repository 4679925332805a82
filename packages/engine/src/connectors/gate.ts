import { EngineError, abortError } from '../errors.ts';

// A bounded gate in front of every driver pool: at most `size` runs hold a connection, at most `maxWaiting` wait,
// and a waiter gives up after `acquireTimeoutMs` with POOL_EXHAUSTED. Drivers' own queues are unbounded, so the
// gate is what keeps a slow database from piling up requests (the server answers 503).

export interface GateOptions {
  size: number;
  acquireTimeoutMs: number;
  /** Waiters beyond this are refused at once. Defaults to four times the size. */
  maxWaiting?: number;
}

interface Waiter {
  resolve: (release: () => void) => void;
  reject: (error: Error) => void;
}

export class Gate {
  readonly size: number;
  readonly acquireTimeoutMs: number;
  readonly maxWaiting: number;
  #inUse = 0;
  #waiters: Waiter[] = [];

  constructor(options: GateOptions) {
    this.size = Math.max(1, Math.floor(options.size));
    this.acquireTimeoutMs = options.acquireTimeoutMs;
    this.maxWaiting = options.maxWaiting ?? this.size * 4;
  }

  get inUse(): number {
    return this.#inUse;
  }

  get waiting(): number {
    return this.#waiters.length;
  }

  /** Resolves with a release function (idempotent) once a slot is free. */
  acquire(signal?: AbortSignal): Promise<() => void> {
    if (signal?.aborted) return Promise.reject(abortError(signal));
    if (this.#inUse < this.size) {
      this.#inUse += 1;
      return Promise.resolve(this.#releaser());
    }
    if (this.#waiters.length >= this.maxWaiting) return Promise.reject(new EngineError('POOL_EXHAUSTED'));
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        resolve: (release) => {
          cleanup();
          resolve(release);
        },
        reject: (error) => {
          cleanup();
          reject(error);
        },
      };
      const timer = setTimeout(() => this.#drop(waiter, new EngineError('POOL_EXHAUSTED')), this.acquireTimeoutMs);
      const onAbort = () => this.#drop(waiter, abortError(signal!));
      const cleanup = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#waiters.push(waiter);
    });
  }

  #drop(waiter: Waiter, error: Error): void {
    const index = this.#waiters.indexOf(waiter);
    if (index === -1) return;
    this.#waiters.splice(index, 1);
    waiter.reject(error);
  }

  #releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.#waiters.shift();
      if (next) next.resolve(this.#releaser());
      else this.#inUse -= 1;
    };
  }
}
