import { describe, expect, it } from 'vitest';
import { initials } from './initials.ts';

describe('initials', () => {
  it('takes the first letters of the first and last names', () => {
    expect(initials('Ada Lovelace')).toBe('AL');
    expect(initials('grace brewster murray hopper')).toBe('GH');
    expect(initials('analyst')).toBe('A');
    expect(initials('jane.doe@example.org')).toBe('JO');
    expect(initials('  ')).toBe('?');
    expect(initials(null)).toBe('?');
  });
});
