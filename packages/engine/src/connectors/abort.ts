import { abortError } from '../errors.ts';

/** Rejects as soon as the signal aborts, whatever the driver's promise does. */
export function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    promise.catch(() => undefined);
    return Promise.reject(abortError(signal));
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortError(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

/** The SQL text of a quoted identifier (double quotes doubled). */
export function quoteIdentifier(name: string, quote = '"'): string {
  return `${quote}${name.split(quote).join(quote + quote)}${quote}`;
}
