import type { ReactNode } from 'react';
import { Table } from '@mantine/core';

export interface DataColumn {
  label: string;
  ta?: 'right';
  w?: number;
}

export interface DataTableProps {
  /** The table's accessible name. */
  label: string;
  columns: DataColumn[];
  /** Wide tables scroll sideways below this width. */
  minWidth?: number;
  /** The rows (Table.Tr). */
  children: ReactNode;
}

/** The striped table of the list and tab screens: a header row and the rows given. */
export function DataTable({ label, columns, minWidth, children }: DataTableProps) {
  const table = (
    <Table striped highlightOnHover verticalSpacing="sm" aria-label={label}>
      <Table.Thead>
        <Table.Tr>
          {columns.map((column) => (
            <Table.Th key={column.label} ta={column.ta} w={column.w}>
              {column.label}
            </Table.Th>
          ))}
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>{children}</Table.Tbody>
    </Table>
  );
  return minWidth ? <Table.ScrollContainer minWidth={minWidth}>{table}</Table.ScrollContainer> : table;
}
