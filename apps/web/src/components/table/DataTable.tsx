import type { ReactNode } from 'react';
import { Group, Table, UnstyledButton } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconArrowsSort } from '@tabler/icons-react';
import classes from './DataTable.module.css';

export interface DataColumn {
  label: string;
  ta?: 'right';
  w?: number;
  /** The server's name of the column when the list can be sorted by it. */
  sortKey?: string;
}

export interface TableSort {
  by: string;
  direction: 'asc' | 'desc';
  onSort: (key: string) => void;
}

export interface DataTableProps {
  /** The table's accessible name. */
  label: string;
  columns: DataColumn[];
  /** Wide tables scroll sideways below this width. */
  minWidth?: number;
  /** Sortable columns (those with a sortKey) get a header button; the sorted one shows its direction. */
  sort?: TableSort | undefined;
  /** The rows (Table.Tr). */
  children: ReactNode;
}

function SortIcon({ direction }: { direction: 'asc' | 'desc' | null }) {
  if (direction === 'asc') return <IconArrowUp size={14} aria-hidden />;
  if (direction === 'desc') return <IconArrowDown size={14} aria-hidden />;
  return <IconArrowsSort size={14} aria-hidden opacity={0.6} />;
}

function HeaderCell({ column, sort }: { column: DataColumn; sort: TableSort | undefined }) {
  const { sortKey } = column;
  if (!sort || !sortKey) {
    return (
      <Table.Th ta={column.ta} w={column.w}>
        {column.label}
      </Table.Th>
    );
  }
  const direction = sort.by === sortKey ? sort.direction : null;
  const ariaSort = direction === 'asc' ? 'ascending' : direction === 'desc' ? 'descending' : 'none';
  return (
    <Table.Th ta={column.ta} w={column.w} aria-sort={ariaSort}>
      <UnstyledButton className={classes.sortButton} onClick={() => sort.onSort(sortKey)}>
        <Group gap={4} wrap="nowrap" justify={column.ta === 'right' ? 'flex-end' : 'flex-start'}>
          {column.label}
          <SortIcon direction={direction} />
        </Group>
      </UnstyledButton>
    </Table.Th>
  );
}

/** The striped table of the list and tab screens: a header row (sortable where asked) and the rows given. */
export function DataTable({ label, columns, minWidth, sort, children }: DataTableProps) {
  const table = (
    <Table striped highlightOnHover verticalSpacing="sm" aria-label={label}>
      <Table.Thead>
        <Table.Tr>
          {columns.map((column) => (
            <HeaderCell key={column.label} column={column} sort={sort} />
          ))}
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>{children}</Table.Tbody>
    </Table>
  );
  return minWidth ? <Table.ScrollContainer minWidth={minWidth}>{table}</Table.ScrollContainer> : table;
}
