import { z } from 'zod';
import { defineCall } from '../call.ts';
import { isoDateTime } from '../dates.ts';
import { messages } from '../messages.ts';
import { pageOf, pageQuery } from '../paging.ts';

// Cache management (product §7 "Account, logs and cache"; canManageUsers only): the entries of the result cache
// (product §15) by type, one entry's value, removing one, purging all or one type.

export const cacheEntryTypes = ['results', 'parameterData', 'metadata'] as const;
export type CacheEntryType = (typeof cacheEntryTypes)[number];

export const cacheEntryType = z.enum(cacheEntryTypes, {
  error: (issue) => messages.unsupportedType(String(issue.input)),
});

/** A cache key as the server made it: taken as it is (no trimming), one line. */
export const cacheKey = z
  .string()
  .min(1, messages.required('key'))
  .max(4000)
  .refine((value) => !/[\r\n\0]/.test(value), messages.invalidOption);

/** The most rows of a cached result the value call answers (the grid shows them; the entry may hold more). */
export const CACHE_VALUE_MAX_ROWS = 1000;

export const cacheEntry = z.object({
  key: z.string(),
  type: cacheEntryType,
  /** The data asset the entry belongs to; null when the key names none or the asset is gone. */
  asset: z.object({ uid: z.string(), name: z.string() }).nullable(),
  /** Bytes the entry holds. */
  size: z.number().int(),
  createdAt: isoDateTime,
  ageMs: z.number().int(),
  /** Time to live left, in milliseconds. */
  ttlMs: z.number().int(),
  hits: z.number().int(),
});
export type CacheEntry = z.infer<typeof cacheEntry>;

export const getCacheKeys = defineCall({
  method: 'GET',
  path: '/api/Caching/GetCacheKeys',
  tag: 'Caching',
  summary: 'The cache entries, newest first, of one type or all, with their asset, size, age, TTL and hits',
  query: pageQuery.extend({ type: cacheEntryType.optional() }),
  response: pageOf(cacheEntry).extend({
    /** Bytes of every entry listed (all pages). */
    totalBytes: z.number().int(),
  }),
});

const resultsValue = z.object({
  type: z.literal('results'),
  key: z.string(),
  columns: z.array(z.object({ name: z.string(), type: z.string() })),
  rows: z.array(z.record(z.string(), z.unknown())),
  /** Rows the entry holds; `rows` stops at CACHE_VALUE_MAX_ROWS. */
  rowCount: z.number().int(),
  capped: z.boolean(),
});
const parameterDataValue = z.object({
  type: z.literal('parameterData'),
  key: z.string(),
  options: z.array(z.object({ value: z.unknown(), label: z.string() })),
});
const metadataValue = z.object({ type: z.literal('metadata'), key: z.string(), value: z.unknown() });

export const cacheValue = z.discriminatedUnion('type', [resultsValue, parameterDataValue, metadataValue]);
export type CacheValue = z.infer<typeof cacheValue>;

export const getCacheValueByType = defineCall({
  method: 'GET',
  path: '/api/Caching/GetCacheValueByType',
  tag: 'Caching',
  summary:
    "One entry's value as its type reads: results as columns and rows (at most 1000), parameter data as " +
    'options, metadata as JSON; 404 when the entry is gone or of another type',
  query: z.object({ key: cacheKey, type: cacheEntryType }),
  response: cacheValue,
});

export const removeFromCache = defineCall({
  method: 'POST',
  path: '/api/Caching/RemoveFromCache',
  tag: 'Caching',
  summary: 'Removes one entry (audited); 404 when it is gone',
  query: z.object({ key: cacheKey }),
  response: z.object({ removed: z.number().int() }),
});

export const purgeCache = defineCall({
  method: 'POST',
  path: '/api/Caching/PurgeCache',
  tag: 'Caching',
  summary: 'Removes every entry, or every entry of one type (audited); answers how many went',
  body: z.object({ type: cacheEntryType.optional() }).default({}),
  response: z.object({ removed: z.number().int() }),
});
