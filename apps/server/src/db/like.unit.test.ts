import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { containsPattern } from './like.ts';

// The pattern is checked against SQLite's own LIKE, so what is tested is what the store does.
const db = new DatabaseSync(':memory:');
const matches = (text: string, search: string) =>
  Boolean(
    (
      db.prepare(`select ? like ? escape '\\' as hit`).get(text.toLowerCase(), containsPattern(search)) as {
        hit: number;
      }
    ).hit,
  );

describe('containsPattern', () => {
  it('matches a substring regardless of case', () => {
    expect(matches('Quarterly Sales', 'sales')).toBe(true);
    expect(matches('Quarterly Sales', 'SALES')).toBe(true);
    expect(matches('Quarterly', 'sales')).toBe(false);
  });

  it('takes % literally', () => {
    expect(containsPattern('100%')).toBe('%100\\%%');
    expect(matches('has 100% of it', '100%')).toBe(true);
    expect(matches('has 1000 of it', '100%')).toBe(false);
  });

  it('takes _ literally', () => {
    expect(matches('order_lines', 'r_l')).toBe(true);
    expect(matches('orderXlines', 'r_l')).toBe(false);
  });

  it('takes the escape character \\ literally', () => {
    expect(containsPattern('a\\b')).toBe('%a\\\\b%');
    expect(matches('path a\\b here', 'a\\b')).toBe(true);
    expect(matches('path ab here', 'a\\b')).toBe(false);
  });
});
