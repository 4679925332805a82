import { describe, expect, it } from 'vitest';
import { formatMs, parseServerTiming } from './server-timing.ts';

describe('parseServerTiming', () => {
  it('reads each entry’s duration by name', () => {
    expect(parseServerTiming('authz;dur=0.012, queue;dur=0.003, database;dur=12.500')).toEqual({
      authz: 0.012,
      queue: 0.003,
      database: 12.5,
    });
  });

  it('ignores descriptions (with commas), entries without a duration and later repeats', () => {
    expect(parseServerTiming('cache;desc="hit, warm";dur=1, miss, write;dur=abc, cache;dur=9')).toEqual({ cache: 1 });
  });

  it('reads nothing from a missing header', () => {
    expect(parseServerTiming(null)).toEqual({});
    expect(parseServerTiming('')).toEqual({});
  });
});

describe('formatMs', () => {
  it('keeps two decimals below 10 ms and none from 100 ms', () => {
    expect(formatMs(0.0123)).toBe('0.01 ms');
    expect(formatMs(12.34)).toBe('12.3 ms');
    expect(formatMs(1250.4)).toBe('1,250 ms');
  });
});
