// Work over 100,000 rows (parsing a reply, sorting) is cut into slices of a few milliseconds with the browser's turn
// between them, so no task runs long enough to freeze input or painting (Chromium calls a task over 50 ms "long").

/** How long one slice may run before giving the browser its turn. */
export const SLICE_MS = 8;

interface Scheduler {
  yield?: () => Promise<void>;
}

/**
 * Ends the current task and resumes in a new one: scheduler.yield() where the browser has it (the continuation keeps
 * its priority), else a message to ourselves (setTimeout(0) is clamped to 4 ms once nested).
 */
export function yieldToBrowser(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: Scheduler }).scheduler;
  if (typeof scheduler?.yield === 'function') return scheduler.yield();
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}

/** A clock for one slice: `due()` tells when the slice has used its time. */
export function sliceClock(budgetMs = SLICE_MS) {
  let startedAt = performance.now();
  return {
    due: () => performance.now() - startedAt >= budgetMs,
    /** Yields to the browser and starts a new slice. */
    async next() {
      await yieldToBrowser();
      startedAt = performance.now();
    },
  };
}

export interface SlicedJob {
  cancel: () => void;
}

/**
 * Runs a generator that yields at points where it may pause, a slice at a time, and hands its result to `onDone`. The
 * first slice runs at once, so a small job finishes before this returns; `cancel` stops a job that has not finished.
 */
export function runSliced<T>(
  steps: Generator<unknown, T>,
  onDone: (result: T) => void,
  budgetMs = SLICE_MS,
): SlicedJob {
  let cancelled = false;
  const run = () => {
    if (cancelled) return;
    const startedAt = performance.now();
    for (;;) {
      const step = steps.next();
      if (step.done) {
        onDone(step.value);
        return;
      }
      if (performance.now() - startedAt >= budgetMs) break;
    }
    void yieldToBrowser().then(run);
  };
  run();
  return {
    cancel: () => {
      cancelled = true;
    },
  };
}
