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

/** A flag of space-separated words (`--server-node-args="--a --b"`); none when absent. */
export const wordsOption = (options: BenchOptions, name: string): string[] =>
  options[name]?.split(' ').filter(Boolean) ?? [];

/** A flag of space-separated NAME=value pairs (`--server-env="A=1 B=2"`), as an environment. */
export const envOption = (options: BenchOptions, name: string): Record<string, string> =>
  Object.fromEntries(
    wordsOption(options, name).map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]),
  );
