import { describe, expect, it } from 'vitest';
import { VerifiedTokens } from './verified-tokens.ts';

const SIGNATURE = 'S'.repeat(40);
const token = (claims: string) => `header.${claims}.${SIGNATURE}`;

describe('VerifiedTokens', () => {
  it('knows a verified token until its expiry', () => {
    const tokens = new VerifiedTokens(10);
    tokens.set(token('alice'), 7, 1000);
    expect(tokens.get(token('alice'), 999)).toBe(7);
    expect(tokens.get(token('alice'), 1000)).toBeUndefined();
  });

  it('never answers for another token that ends the same way', () => {
    const tokens = new VerifiedTokens(10);
    tokens.set(token('alice'), 7, Infinity);
    expect(tokens.get(token('mallory'))).toBeUndefined();
    expect(tokens.userOfBearer(`Bearer ${token('mallory')}`)).toBeUndefined();
    expect(tokens.get(token('alice'))).toBe(7);
  });

  it('reads a known token from an exact "Bearer " header only', () => {
    const tokens = new VerifiedTokens(10);
    tokens.set(token('alice'), 7, Infinity);
    expect(tokens.userOfBearer(`Bearer ${token('alice')}`)).toBe(7);
    for (const header of [
      undefined,
      token('alice'),
      `bearer ${token('alice')}`,
      `Bearer ${token('alice')} `,
      `Basic ${token('alice')}`,
    ]) {
      expect(tokens.userOfBearer(header)).toBeUndefined();
    }
  });

  it('keeps at most its bound, the least recently used token going first', () => {
    const tokens = new VerifiedTokens(2);
    const [a, b, c] = [token('a'), token('b'), token('c')].map((t, i) => `${t}${i}`) as [string, string, string];
    tokens.set(a, 1, Infinity);
    tokens.set(b, 2, Infinity);
    expect(tokens.get(a)).toBe(1);
    tokens.set(c, 3, Infinity);
    expect([tokens.get(a), tokens.get(b), tokens.get(c)]).toEqual([1, undefined, 3]);
  });
});
