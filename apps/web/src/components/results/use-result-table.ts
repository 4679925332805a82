import { useMemo } from 'react';
import {
  columnResizingFeature,
  columnSizingFeature,
  rowSortingFeature,
  tableFeatures,
  useTable,
  type ColumnDef,
} from '@tanstack/react-table';
import { isNumericColumn } from './cell-value.ts';

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

function columnSize(column: ResultColumn): number {
  if (isNumericColumn(column.type)) return 120;
  return Math.min(320, Math.max(120, column.name.length * 9 + 48));
}

export function useResultTable(columns: readonly ResultColumn[]) {
  const columnDefs = useMemo(
    () =>
      columns.map((column): ColumnDef<Features, ResultRow> => ({
        id: column.name,
        accessorFn: (row) => row[column.name],
        header: column.name,
        size: columnSize(column),
        minSize: 60,
        sortDescFirst: false,
      })),
    [columns],
  );
  return useTable({
    features: resultFeatures,
    columns: columnDefs,
    data: NO_ROWS,
    columnResizeMode: 'onChange',
    enableMultiSort: false,
  });
}
