import { VisuallyHidden } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconArrowsSort } from '@tabler/icons-react';
import type { ReactTable } from '@tanstack/react-table';
import type { KeyboardEvent } from 'react';
import { isNumericColumn } from './cell-value.ts';
import classes from './ResultGrid.module.css';
import type { ResultColumn, ResultRow, resultFeatures } from './use-result-table.ts';

export const ROW_NUMBER_WIDTH = 64;

type Table = ReactTable<typeof resultFeatures, ResultRow>;

const ariaSort = { asc: 'ascending', desc: 'descending' } as const;
const RESIZE_STEP = 20;

/** Alt+Arrow keys widen or narrow the focused column: resizing without dragging (WCAG 2.5.7). */
function resizeByKey(table: Table, columnId: string, size: number, event: KeyboardEvent) {
  if (!event.altKey || (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight')) return;
  event.preventDefault();
  const next = Math.max(60, size + (event.key === 'ArrowRight' ? RESIZE_STEP : -RESIZE_STEP));
  table.setColumnSizing((current) => ({ ...current, [columnId]: next }));
}

export function GridHeader({ table, columns }: { table: Table; columns: readonly ResultColumn[] }) {
  const types = new Map(columns.map((column) => [column.name, column.type]));
  return (
    <thead className={classes.head}>
      {table.getHeaderGroups().map((group) => (
        <tr key={group.id} className={classes.headRow} aria-rowindex={1}>
          <th className={classes.headCell} style={{ width: ROW_NUMBER_WIDTH }} scope="col">
            <VisuallyHidden>Row</VisuallyHidden>
          </th>
          {group.headers.map((header) => {
            const sorted = header.column.getIsSorted();
            const numeric = isNumericColumn(types.get(header.column.id) ?? '');
            const SortIcon = sorted === 'asc' ? IconArrowUp : sorted === 'desc' ? IconArrowDown : IconArrowsSort;
            return (
              <th
                key={header.id}
                scope="col"
                className={`${classes.headCell} ${numeric ? classes.numeric : ''}`}
                style={{ width: header.getSize() }}
                aria-sort={sorted ? ariaSort[sorted] : 'none'}
                title={`${header.column.id} (${types.get(header.column.id) ?? 'unknown type'})`}
              >
                <button
                  type="button"
                  className={classes.sortButton}
                  onClick={header.column.getToggleSortingHandler()}
                  onKeyDown={(event) => resizeByKey(table, header.column.id, header.getSize(), event)}
                  aria-keyshortcuts="Alt+ArrowLeft Alt+ArrowRight"
                >
                  <span className={classes.columnName}>{header.column.id}</span>
                  {/* The type reads in the header's title for assistive technology; the name stays the button's name. */}
                  <span className={classes.columnType} aria-hidden>
                    {types.get(header.column.id)}
                  </span>
                  <SortIcon size={14} aria-hidden />
                </button>
                <div
                  role="presentation"
                  className={`${classes.resizer} ${header.column.getIsResizing() ? classes.resizing : ''}`}
                  onMouseDown={header.getResizeHandler()}
                  onTouchStart={header.getResizeHandler()}
                  onDoubleClick={() => header.column.resetSize()}
                />
              </th>
            );
          })}
        </tr>
      ))}
    </thead>
  );
}
