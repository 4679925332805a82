import type { SortState } from '../search/use-sort-state.ts';
import type { TableSort } from './DataTable.tsx';

/** A list's sort state as the table's header buttons use it; keys outside `columns` are ignored. */
export function tableSort<C extends string>(sort: SortState<C>, columns: readonly C[]): TableSort {
  return {
    by: sort.sortBy,
    direction: sort.sortDirection,
    onSort: (key) => {
      const column = columns.find((candidate) => candidate === key);
      if (column) sort.sortOn(column);
    },
  };
}
