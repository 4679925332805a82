import { describe, expect, it } from 'vitest';
import { ancestorChains, countGroups } from './hierarchy.ts';

describe('ancestorChains', () => {
  it('reads every way up as a chain from the outermost group down to the direct parent', () => {
    const company = { id: 1, name: 'Company', children: [] };
    const ancestors = [
      { id: 3, name: 'Staff', children: [company, { id: 2, name: 'Holding', children: [] }] },
      { id: 4, name: 'Partners', children: [] },
    ];
    expect(ancestorChains(ancestors).map((chain) => chain.map((g) => g.name))).toEqual([
      ['Company', 'Staff'],
      ['Holding', 'Staff'],
      ['Partners'],
    ]);
  });

  it('has no chains for a top-level group', () => {
    expect(ancestorChains([])).toEqual([]);
  });
});

describe('countGroups', () => {
  it('counts a group reached two ways once', () => {
    const shared = { id: 9, name: 'Shared', children: [] };
    expect(
      countGroups([
        { id: 1, name: 'A', children: [shared] },
        { id: 2, name: 'B', children: [shared] },
      ]),
    ).toBe(3);
  });
});
