import { useEffect, useState } from 'react';
import { runSliced } from '../../lib/time-slice.ts';
import { sortedOrder, type SortBy } from './sort-order.ts';

// Which reply row each position of the grid shows. Unsorted, position = row (nothing is computed, so the first render
// costs nothing per row); sorted, an order computed a slice at a time. Until a new order is ready the previous one
// stays on screen and `isSorting` says so.

export interface DisplayOrder {
  /** The reply row at a position of the grid. */
  rowAt: (position: number) => number;
  isSorting: boolean;
}

interface Computed {
  rows: readonly unknown[];
  by: SortBy | null;
  order: Uint32Array | null;
}

const identity = (position: number) => position;
const sameSort = (a: SortBy | null, b: SortBy | null) => a?.column === b?.column && a?.desc === b?.desc;

export function useDisplayOrder(rows: readonly Record<string, unknown>[], by: SortBy | null): DisplayOrder {
  const [computed, setComputed] = useState<Computed>({ rows, by: null, order: null });
  const column = by?.column;
  const desc = by?.desc;
  useEffect(() => {
    if (column === undefined) return;
    const wanted = { column, desc: desc === true };
    // A small result is sorted before this returns; a large one over several tasks, the newest request winning.
    const job = runSliced(sortedOrder(rows, wanted), (order) => setComputed({ rows, by: wanted, order }));
    return job.cancel;
  }, [rows, column, desc]);

  if (!by) return { rowAt: identity, isSorting: false };
  // Another result's order never applies to these rows.
  const order = computed.rows === rows ? computed.order : null;
  return {
    rowAt: order ? (position) => order[position] ?? position : identity,
    isSorting: computed.rows !== rows || !sameSort(computed.by, by),
  };
}
