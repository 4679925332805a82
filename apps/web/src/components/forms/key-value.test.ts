import { describe, expect, it } from 'vitest';
import { newRow, recordOf, repeatedNames, rowsOf } from './key-value.ts';

describe('name/value rows', () => {
  it('turn into a record without empty names, the last of a repeated name winning', () => {
    const rows = [newRow('a', '1'), newRow(' ', 'x'), newRow(' b ', '2'), newRow('a', '3')];
    expect(recordOf(rows)).toEqual({ a: '3', b: '2' });
    expect(rowsOf({ a: '1' }).map(({ name, value }) => [name, value])).toEqual([['a', '1']]);
  });

  it('name what is given twice, ignoring case for headers', () => {
    const rows = [newRow('Accept', '1'), newRow('accept', '2'), newRow('X', '3')];
    expect(repeatedNames(rows, true)).toEqual(['accept']);
    expect(repeatedNames(rows, false)).toEqual([]);
  });
});
