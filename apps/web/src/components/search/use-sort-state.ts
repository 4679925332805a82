import { useCallback } from 'react';
import { useSearchParams } from 'react-router';

export type SortDirection = 'asc' | 'desc';

export interface SortState<C extends string> {
  sortBy: C;
  sortDirection: SortDirection;
  /** The same column again reverses the order; another column starts ascending. Either goes back to page 1. */
  sortOn: (column: C) => void;
  /** A column and direction chosen together (a sort menu). */
  setSort: (column: C, direction: SortDirection) => void;
}

/**
 * A list's sort order, kept in the URL (?sort=…&dir=desc) beside its search and page, so Back,
 * Forward and shared links keep it. Only the columns the server allows are read from the URL.
 */
export function useSortState<const C extends string>(columns: readonly C[], defaultColumn: C): SortState<C> {
  const [params, setParams] = useSearchParams();
  const requested = params.get('sort');
  const sortBy = columns.find((column) => column === requested) ?? defaultColumn;
  const sortDirection: SortDirection = params.get('dir') === 'desc' ? 'desc' : 'asc';

  const setSort = useCallback(
    (column: C, direction: SortDirection) => {
      setParams((current) => {
        const next = new URLSearchParams(current);
        if (column === defaultColumn) next.delete('sort');
        else next.set('sort', column);
        if (direction === 'desc') next.set('dir', 'desc');
        else next.delete('dir');
        next.delete('page');
        return next;
      });
    },
    [setParams, defaultColumn],
  );
  const sortOn = useCallback(
    (column: C) => setSort(column, column === sortBy && sortDirection === 'asc' ? 'desc' : 'asc'),
    [setSort, sortBy, sortDirection],
  );
  return { sortBy, sortDirection, sortOn, setSort };
}
