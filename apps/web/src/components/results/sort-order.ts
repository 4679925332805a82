import { compareCells, isEmptyValue } from './cell-value.ts';

// The order of the rows sorted by one column, as positions into the reply's rows: a stable merge sort that pauses
// (yields) every so many steps, so `runSliced` can spread 100,000 rows over several short tasks. Empty values go last
// in either direction; rows that compare equal keep the reply's order.

export interface SortBy {
  column: string;
  desc: boolean;
}

/**
 * Comparisons between pauses, about: a text comparison (Intl.Collator, numeric) can take microseconds, so a pause
 * comes every few hundred of them; the slice's clock decides when the browser actually gets its turn.
 */
const STEP = 256;
/** Runs this short are sorted by insertion before merging. */
const RUN = 32;

export function* sortedOrder(rows: readonly Record<string, unknown>[], by: SortBy): Generator<void, Uint32Array> {
  const count = rows.length;
  const values: unknown[] = new Array<unknown>(count);
  for (let i = 0; i < count; i += 1) {
    values[i] = rows[i]?.[by.column];
    if (i % (STEP * 64) === 0) yield;
  }
  const sign = by.desc ? -1 : 1;
  /** Before (<0), equal (0) or after (>0), for the rows at these reply positions. */
  const compare = (a: number, b: number) => {
    const x = values[a];
    const y = values[b];
    if (isEmptyValue(x) || isEmptyValue(y)) return compareCells(x, y);
    return sign * compareCells(x, y);
  };

  let from = new Uint32Array(count);
  let to = new Uint32Array(count);
  for (let i = 0; i < count; i += 1) from[i] = i;
  for (let start = 0; start < count; start += RUN) {
    const end = Math.min(start + RUN, count);
    for (let i = start + 1; i < end; i += 1) {
      const item = from[i]!;
      let j = i - 1;
      for (; j >= start && compare(from[j]!, item) > 0; j -= 1) from[j + 1] = from[j]!;
      from[j + 1] = item;
    }
    yield; // a run: at most RUN * (RUN - 1) / 2 comparisons
  }
  for (let width = RUN; width < count; width *= 2) {
    for (let low = 0; low < count; low += 2 * width) {
      const middle = Math.min(low + width, count);
      const high = Math.min(low + 2 * width, count);
      let left = low;
      let right = middle;
      let out = low;
      while (left < middle && right < high) {
        // Strictly smaller from the right, so equal rows keep their order (stable).
        to[out++] = compare(from[right]!, from[left]!) < 0 ? from[right++]! : from[left++]!;
        if (out % STEP === 0) yield;
      }
      while (left < middle) to[out++] = from[left++]!;
      while (right < high) to[out++] = from[right++]!;
    }
    [from, to] = [to, from];
  }
  return from;
}
