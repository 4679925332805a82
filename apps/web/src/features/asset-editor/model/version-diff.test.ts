import { describe, expect, it } from 'vitest';
import { sideBySide } from './version-diff.ts';

describe('sideBySide', () => {
  it('pairs a changed line, keeps equal lines on both sides and numbers each side on its own', () => {
    const rows = sideBySide('select id\nfrom people\nwhere x = 1\n', 'select id, email\nfrom people\n');
    expect(rows.map((r) => [r.kind, r.left?.number ?? null, r.left?.text ?? null, r.right?.text ?? null])).toEqual([
      ['changed', 1, 'select id', 'select id, email'],
      ['same', 2, 'from people', 'from people'],
      ['removed', 3, 'where x = 1', null],
    ]);
  });

  it('shows an added line on the right only, and nothing changed as equal rows', () => {
    expect(sideBySide('a', 'a\nb').map((r) => r.kind)).toEqual(['same', 'added']);
    expect(sideBySide('a\nb', 'a\nb').every((r) => r.kind === 'same')).toBe(true);
  });
});
