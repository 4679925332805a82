import { useVirtualizer } from '@tanstack/react-virtual';
import type { RefObject } from 'react';
import { cellText, isEmptyValue, isNumericColumn } from './cell-value.ts';
import { ROW_NUMBER_WIDTH } from './GridHeader.tsx';
import classes from './ResultGrid.module.css';
import type { ResultColumn, ResultTableRow } from './use-result-table.ts';

// Only the rows in view (plus a few) are in the document: 100,000 rows cost what 40 do. Each cell is plain text
// (no per-cell component) so scrolling does no heavy work.

export const ROW_HEIGHT = 30;

interface GridBodyProps {
  rows: readonly ResultTableRow[];
  columns: readonly ResultColumn[];
  widths: readonly number[];
  scrollRef: RefObject<HTMLDivElement | null>;
  /** The scroller's height: the first frame already shows the rows in view. */
  viewHeight: number;
  selected: ReadonlySet<string>;
  onToggleRow: (index: number, extend: boolean) => void;
}

export function GridBody({ rows, columns, widths, scrollRef, viewHeight, selected, onToggleRow }: GridBodyProps) {
  // The virtualiser re-renders this body itself on scroll; nothing here is memoised by hand.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 10,
    initialRect: { width: 0, height: viewHeight },
  });
  const numeric = columns.map((column) => isNumericColumn(column.type));
  return (
    <tbody className={classes.body} style={{ height: virtualizer.getTotalSize() }}>
      {virtualizer.getVirtualItems().map((item) => {
        const row = rows[item.index];
        if (!row) return null;
        const isSelected = selected.has(row.id);
        return (
          <tr
            key={row.id}
            className={`${classes.row} ${isSelected ? classes.selected : ''}`}
            style={{ transform: `translateY(${item.start}px)`, height: ROW_HEIGHT }}
            aria-rowindex={item.index + 2}
            aria-selected={isSelected}
          >
            <td className={classes.cell} style={{ width: ROW_NUMBER_WIDTH, padding: 0 }}>
              <button
                type="button"
                className={classes.rowNumber}
                aria-pressed={isSelected}
                aria-label={`Select row ${item.index + 1}`}
                onClick={(event) => onToggleRow(item.index, event.shiftKey)}
              >
                {item.index + 1}
              </button>
            </td>
            {columns.map((column, index) => {
              const value = row.original[column.name];
              const empty = isEmptyValue(value);
              const className = `${classes.cell} ${numeric[index] ? classes.numeric : ''} ${empty ? classes.empty : ''}`;
              return (
                <td key={column.name} className={className} style={{ width: widths[index] }}>
                  {cellText(value)}
                </td>
              );
            })}
          </tr>
        );
      })}
    </tbody>
  );
}
