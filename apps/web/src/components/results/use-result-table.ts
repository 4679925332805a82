import { useMemo } from 'react';
import {
  columnResizingFeature,
  columnSizingFeature,
  createSortedRowModel,
  rowSortingFeature,
  tableFeatures,
  useTable,
  type ColumnDef,
  type Row,
} from '@tanstack/react-table';
import { compareCells, isNumericColumn } from './cell-value.ts';

// The grid's table model: client-side sorting of the loaded rows and resizable columns. Rows are the reply's
// objects as they are (no per-row copies), so 100,000 rows cost one array of references.

export type ResultRow = Record<string, unknown>;
export interface ResultColumn {
  name: string;
  type: string;
}

export const resultFeatures = tableFeatures({
  rowSortingFeature,
  columnSizingFeature,
  columnResizingFeature,
  sortedRowModel: createSortedRowModel(),
});
type Features = typeof resultFeatures;
export type ResultTableRow = Row<Features, ResultRow>;

const sortCells = (a: ResultTableRow, b: ResultTableRow, columnId: string) =>
  compareCells(a.original[columnId], b.original[columnId]);

function columnSize(column: ResultColumn): number {
  if (isNumericColumn(column.type)) return 120;
  return Math.min(320, Math.max(120, column.name.length * 9 + 48));
}

export function useResultTable(columns: readonly ResultColumn[], rows: readonly ResultRow[]) {
  const columnDefs = useMemo(
    () =>
      columns.map((column): ColumnDef<Features, ResultRow> => ({
        id: column.name,
        accessorFn: (row) => row[column.name],
        header: column.name,
        size: columnSize(column),
        minSize: 60,
        sortFn: sortCells,
        sortUndefined: false,
        sortDescFirst: false,
      })),
    [columns],
  );
  const data = useMemo(() => [...rows], [rows]);
  return useTable({
    features: resultFeatures,
    columns: columnDefs,
    data,
    columnResizeMode: 'onChange',
    enableMultiSort: false,
  });
}
