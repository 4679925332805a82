import { useMemo } from 'react';
import {
  columnResizingFeature,
  columnSizingFeature,
  rowSortingFeature,
  tableFeatures,
  useTable,
  type ColumnDef,
} from '@tanstack/react-table';
import { cellDisplay } from './cell-value.ts';

// The grid's column model: which column sorts which way, and how wide each column is. The rows stay out of it: a
// table model builds an object per row (100,000 of them before the first paint), while the grid only ever needs the
// rows in view, read from the reply's own objects in the order `use-display-order.ts` computes.

export type ResultRow = Record<string, unknown>;
export interface ResultColumn {
  name: string;
  type: string;
}

export const resultFeatures = tableFeatures({
  rowSortingFeature,
  columnSizingFeature,
  columnResizingFeature,
});
type Features = typeof resultFeatures;

const NO_ROWS: ResultRow[] = [];

/** Rows whose text sizes the columns: the first screenful or so, so the first paint walks no more. */
const SIZING_SAMPLE = 200;
/**
 * Generous widths of a character of the grid's 14 px font (digits and capitals are the widest), of the header's
 * bold name and its 12 px type, and what a cell and a header (sort icon, gaps) add around their text.
 */
const CHAR_PX = 8.4;
const HEAD_CHAR_PX = 8.8;
const TYPE_CHAR_PX = 7;
const CELL_PADDING_PX = 24;
const HEAD_PADDING_PX = 48;
const MIN_WIDTH = 72;
const MAX_WIDTH = 480;

/**
 * A column as wide as its header (name and type) and the widest text of the sampled rows, within bounds: ISO
 * timestamps and numbers show whole while there is room; a very long text is cut, and resizing shows the rest.
 */
export function columnSize(column: ResultColumn, sample: readonly ResultRow[]): number {
  let longest = 0;
  for (const row of sample) longest = Math.max(longest, cellDisplay(row[column.name], column.type).length);
  const head = column.name.length * HEAD_CHAR_PX + column.type.length * TYPE_CHAR_PX + HEAD_PADDING_PX;
  const content = longest * CHAR_PX + CELL_PADDING_PX;
  return Math.round(Math.min(MAX_WIDTH, Math.max(MIN_WIDTH, head, content)));
}

export function useResultTable(columns: readonly ResultColumn[], rows: readonly ResultRow[] = NO_ROWS) {
  const sample = useMemo(() => rows.slice(0, SIZING_SAMPLE), [rows]);
  const columnDefs = useMemo(
    () =>
      columns.map((column): ColumnDef<Features, ResultRow> => ({
        id: column.name,
        accessorFn: (row) => row[column.name],
        header: column.name,
        size: columnSize(column, sample),
        minSize: 60,
        sortDescFirst: false,
      })),
    [columns, sample],
  );
  return useTable({
    features: resultFeatures,
    columns: columnDefs,
    data: NO_ROWS,
    columnResizeMode: 'onChange',
    enableMultiSort: false,
  });
}
