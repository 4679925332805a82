import { describe, expect, it } from 'vitest';
import { cellDisplay, cellText } from './cell-value.ts';
import { columnSize } from './use-result-table.ts';

describe('how a cell reads, by its column type', () => {
  it.each([
    ['1.20000000000000000000', 'decimal', '1.2'],
    ['100.000', 'decimal', '100'],
    ['-0.50', 'decimal', '-0.5'],
    [1.25, 'decimal', '1.25'],
    ['2026-11-03T10:00:00.000Z', 'datetime', '2026-11-03 10:00:00 UTC'],
    ['2026-11-03T10:00:00.250Z', 'datetime', '2026-11-03 10:00:00.25 UTC'],
    ['2026-11-03T10:00:00+01:00', 'datetime', '2026-11-03 10:00:00 +01:00'],
    ['2026-11-03T00:00:00.000Z', 'date', '2026-11-03'],
    ['1.20', 'string', '1.20'],
    [null, 'decimal', 'None'],
  ])('%s (%s) shows as %s', (value, type, shown) => {
    expect(cellDisplay(value, type)).toBe(shown);
  });

  it('copies the value as the server sent it', () => {
    expect(cellText('1.20000000000000000000')).toBe('1.20000000000000000000');
  });
});

describe('column widths', () => {
  it('fit a whole ISO timestamp while it is not very long, and the header with its type', () => {
    const stamp = { name: 'at', type: 'datetime' };
    const width = columnSize(stamp, [{ at: '2026-11-03T10:00:00.000Z' }]);
    expect(width).toBeGreaterThanOrEqual('2026-11-03 10:00:00 UTC'.length * 8.4);
    expect(columnSize({ name: 'id', type: 'integer' }, [{ id: 1 }])).toBeLessThan(width);
    expect(columnSize({ name: 'note', type: 'string' }, [{ note: 'x'.repeat(500) }])).toBe(480);
  });
});
