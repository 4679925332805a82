import type { BenchOptions } from './types.ts';

/** A whole-number flag within [1, max]; loops driven by flags stay bounded whatever is typed. */
export function intOption(options: BenchOptions, name: string, fallback: number, max: number): number {
  const raw = options[name];
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1 || value > max)
    throw new Error(`--${name}=${raw}: expected a whole number from 1 to ${max}`);
  return value;
}

/** LOG_LEVEL for the server: --log-level, else the LOG_LEVEL of this shell, else the server's default (info). */
export const logLevelOption = (options: BenchOptions): string =>
  options['log-level'] ?? process.env.LOG_LEVEL ?? 'info';
