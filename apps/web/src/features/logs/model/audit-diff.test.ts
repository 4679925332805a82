import { describe, expect, it } from 'vitest';
import { auditDiff } from './audit-diff.ts';

describe('audit diff', () => {
  it('lists each field, nested ones by path, with what changed', () => {
    expect(
      auditDiff(
        { name: 'Sales', settings: { ttl: 60, tags: ['a'] }, gone: true },
        { name: 'Sales EU', settings: { ttl: 60, tags: ['a', 'b'] }, added: null },
      ),
    ).toEqual([
      { field: 'name', before: 'Sales', after: 'Sales EU', change: 'changed' },
      { field: 'settings.ttl', before: '60', after: '60', change: 'unchanged' },
      { field: 'settings.tags', before: '["a"]', after: '["a","b"]', change: 'changed' },
      { field: 'gone', before: 'true', after: undefined, change: 'removed' },
      { field: 'added', before: undefined, after: 'null', change: 'added' },
    ]);
  });

  it('shows a creation (nothing before) and a scalar value', () => {
    expect(auditDiff(null, { role: 'Reader' })).toEqual([
      { field: 'role', before: undefined, after: 'Reader', change: 'added' },
    ]);
    expect(auditDiff('Reader', 'Owner')).toEqual([
      { field: 'value', before: 'Reader', after: 'Owner', change: 'changed' },
    ]);
  });
});
