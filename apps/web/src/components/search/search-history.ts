import { z } from 'zod';
import { limits } from '@datalab/contract/limits';

// product §3/§9: recent searches in localStorage under 'searchKeywords', at most 10, newest first,
// without duplicates.

const stored = z.array(z.string());

export interface SearchHistoryOptions {
  limit?: number;
  storage?: Storage;
}

function storageOf(options: SearchHistoryOptions): Storage | null {
  try {
    return options.storage ?? window.localStorage;
  } catch {
    return null;
  }
}

export function readSearchHistory(options: SearchHistoryOptions = {}): string[] {
  const raw = storageOf(options)?.getItem(limits.searchHistoryKey);
  if (!raw) return [];
  try {
    const parsed = stored.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data.slice(0, options.limit ?? limits.searchHistoryLimit) : [];
  } catch {
    return [];
  }
}

/** Puts `keyword` first, drops its older copy and anything beyond the limit; returns the list. */
export function addToSearchHistory(keyword: string, options: SearchHistoryOptions = {}): string[] {
  const limit = options.limit ?? limits.searchHistoryLimit;
  const trimmed = keyword.trim();
  const current = readSearchHistory(options);
  if (trimmed === '') return current;
  const next = [trimmed, ...current.filter((item) => item !== trimmed)].slice(0, limit);
  storageOf(options)?.setItem(limits.searchHistoryKey, JSON.stringify(next));
  return next;
}

export function clearSearchHistory(options: SearchHistoryOptions = {}): void {
  storageOf(options)?.removeItem(limits.searchHistoryKey);
}
