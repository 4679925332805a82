import { SHUTDOWN, settlesWithin, type JobQueue, type ProcessJob } from './queue.ts';

// The embedded queue: ids wait in memory and at most `concurrency` jobs run at once in this process. Nothing here
// needs to survive a restart: Queued jobs are read back from the store when the process starts (plugin.ts).

export class MemoryQueue implements JobQueue {
  readonly kind = 'memory';
  readonly #concurrency: number;
  readonly #waiting: string[] = [];
  readonly #running = new Map<string, { controller: AbortController; done: Promise<void> }>();
  #process: ProcessJob | undefined;
  #closed = false;

  constructor(concurrency: number) {
    this.#concurrency = concurrency;
  }

  async add(id: string): Promise<void> {
    if (this.#closed) return;
    if (!this.#waiting.includes(id) && !this.#running.has(id)) this.#waiting.push(id);
    this.#pump();
  }

  async start(process: ProcessJob): Promise<void> {
    this.#process = process;
    this.#pump();
  }

  #pump() {
    const process = this.#process;
    if (!process) return;
    while (!this.#closed && this.#running.size < this.#concurrency && this.#waiting.length > 0) {
      const id = this.#waiting.shift()!;
      const controller = new AbortController();
      const done = process(id, controller.signal)
        .catch(() => undefined) // the processor records its own failures
        .finally(() => {
          this.#running.delete(id);
          this.#pump();
        });
      this.#running.set(id, { controller, done });
    }
  }

  async close(graceMs: number): Promise<void> {
    this.#closed = true;
    this.#waiting.length = 0;
    const all = Promise.all([...this.#running.values()].map((job) => job.done));
    if (await settlesWithin(all, graceMs)) return;
    for (const job of this.#running.values()) job.controller.abort(SHUTDOWN);
    await all;
  }
}
