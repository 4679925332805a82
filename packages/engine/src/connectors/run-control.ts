import { EngineError } from '../errors.ts';

// One signal per run that fires on the caller's abort or on the run's own timeout (reason: a TIMEOUT error).

export interface RunControl {
  signal: AbortSignal;
  startedAt: number;
  timedOut(): boolean;
  /** Whether the deadline has passed, whether or not the timer has fired yet (a busy event loop delays it). */
  expired(): boolean;
  /** Stops the run (its signal fires with `reason`). */
  abort(reason: unknown): void;
  dispose(): void;
}

export function runControl(timeoutMs: number, outer?: AbortSignal): RunControl {
  const controller = new AbortController();
  const startedAt = performance.now();
  const timer = setTimeout(
    () => controller.abort(new EngineError('TIMEOUT')),
    Math.min(2_147_483_647, Math.max(1, timeoutMs)),
  );
  const onOuterAbort = () => controller.abort(outer?.reason);
  if (outer?.aborted) onOuterAbort();
  else outer?.addEventListener('abort', onOuterAbort, { once: true });
  return {
    signal: controller.signal,
    startedAt,
    timedOut: () => controller.signal.reason instanceof EngineError && controller.signal.reason.code === 'TIMEOUT',
    expired: () => performance.now() - startedAt >= timeoutMs,
    abort: (reason) => controller.abort(reason),
    dispose: () => {
      clearTimeout(timer);
      outer?.removeEventListener('abort', onOuterAbort);
    },
  };
}
