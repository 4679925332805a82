import { memo, useMemo, type RefObject } from 'react';
import { cellDisplay, isEmptyValue, isNumericColumn } from './cell-value.ts';
import { ROW_NUMBER_WIDTH } from './GridHeader.tsx';
import classes from './ResultGrid.module.css';
import type { ResultColumn, ResultRow } from './use-result-table.ts';
import { useRowWindow } from './use-row-window.ts';

// Only the rows in view (plus a few) are in the document: 100,000 rows cost what 30 do. Each cell is plain text
// (no per-cell component) so scrolling does no heavy work: a wheel step that replaces every row in view restyles and
// lays out ~30 rows, well under a frame.

export const ROW_HEIGHT = 30;

interface GridBodyProps {
  rows: readonly ResultRow[];
  /** The reply row shown at a position (the display order). */
  rowAt: (position: number) => number;
  columns: readonly ResultColumn[];
  widths: readonly number[];
  scrollRef: RefObject<HTMLDivElement | null>;
  /** The scroller's height: the first frame already shows the rows in view. */
  viewHeight: number;
  /** Selected rows, by their index in the reply. */
  selected: ReadonlySet<number>;
  onToggleRow: (position: number, extend: boolean) => void;
}

export function GridBody(props: GridBodyProps) {
  const { rows, rowAt, columns, widths, scrollRef, viewHeight, selected, onToggleRow } = props;
  // The window lives here, so scrolling re-renders this body only, not the grid's header and buttons; rows still in
  // view are memoised and skip rendering.
  const { first, last } = useRowWindow(scrollRef, { count: rows.length, rowHeight: ROW_HEIGHT, viewHeight });
  const numeric = useMemo(() => columns.map((column) => isNumericColumn(column.type)), [columns]);
  const positions = Array.from({ length: Math.max(0, last - first + 1) }, (_, offset) => first + offset);
  return (
    <tbody className={classes.body} style={{ height: rows.length * ROW_HEIGHT }}>
      {positions.map((position) => {
        const index = rowAt(position);
        const row = rows[index];
        return row ? (
          <GridRow
            key={index}
            row={row}
            position={position}
            isSelected={selected.has(index)}
            columns={columns}
            numeric={numeric}
            widths={widths}
            onToggleRow={onToggleRow}
          />
        ) : null;
      })}
    </tbody>
  );
}

interface GridRowProps {
  row: ResultRow;
  position: number;
  isSelected: boolean;
  columns: readonly ResultColumn[];
  numeric: readonly boolean[];
  widths: readonly number[];
  onToggleRow: (position: number, extend: boolean) => void;
}

const GridRow = memo(function GridRow({
  row,
  position,
  isSelected,
  columns,
  numeric,
  widths,
  onToggleRow,
}: GridRowProps) {
  return (
    <tr
      className={`${classes.row} ${isSelected ? classes.selected : ''}`}
      style={{ transform: `translateY(${position * ROW_HEIGHT}px)`, height: ROW_HEIGHT }}
      aria-rowindex={position + 2}
      aria-selected={isSelected}
    >
      <td className={classes.cell} style={{ width: ROW_NUMBER_WIDTH, padding: 0 }}>
        <button
          type="button"
          className={classes.rowNumber}
          aria-pressed={isSelected}
          aria-label={`Select row ${position + 1}`}
          onClick={(event) => onToggleRow(position, event.shiftKey)}
        >
          {position + 1}
        </button>
      </td>
      {columns.map((column, columnIndex) => {
        const value = row[column.name];
        const empty = isEmptyValue(value);
        const className = `${classes.cell} ${numeric[columnIndex] ? classes.numeric : ''} ${empty ? classes.empty : ''}`;
        return (
          <td key={column.name} className={className} style={{ width: widths[columnIndex] }}>
            {cellDisplay(value, column.type)}
          </td>
        );
      })}
    </tr>
  );
});
