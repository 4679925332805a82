import { useEffect, useState, type RefObject } from 'react';

// Which rows are in view of the scroller, plus a few either side. Every row has the same height, so the window follows
// from the scroll position by arithmetic: nothing is kept per row, and 100,000 rows cost what 40 do. Scrolling
// re-renders only the component that holds the window, and only when it moves by a row.

export interface RowWindow {
  /** First and last position (inclusive) to render; last < first when there are no rows. */
  first: number;
  last: number;
}

interface RowWindowOptions {
  count: number;
  rowHeight: number;
  /** The scroller's height before it is laid out: the first frame already shows the rows in view. */
  viewHeight: number;
  /** Rows rendered beyond each edge, so a small scroll shows rows already there. */
  overscan?: number;
}

function windowAt(scrollTop: number, height: number, { count, rowHeight, overscan = 6 }: RowWindowOptions): RowWindow {
  const first = Math.max(0, Math.floor(scrollTop / rowHeight) - overscan);
  const last = Math.min(count - 1, Math.ceil((scrollTop + height) / rowHeight) + overscan);
  return { first: Math.min(first, Math.max(0, last)), last };
}

export function useRowWindow(scrollRef: RefObject<HTMLElement | null>, options: RowWindowOptions): RowWindow {
  const { count, rowHeight, viewHeight, overscan } = options;
  const [range, setRange] = useState(() => windowAt(0, viewHeight, options));
  // A passive effect, not a layout one: it runs once the whole tree is committed, so the scroller's ref (set by a
  // component above) is there. The first frame needs no scroller: it shows the top rows of a view this high.
  useEffect(() => {
    const scroller = scrollRef.current;
    if (!scroller) return;
    const settings = { count, rowHeight, viewHeight, overscan };
    const update = () => {
      const next = windowAt(scroller.scrollTop, scroller.clientHeight || viewHeight, settings);
      setRange((current) => (current.first === next.first && current.last === next.last ? current : next));
    };
    update();
    scroller.addEventListener('scroll', update, { passive: true });
    const resize = typeof ResizeObserver === 'undefined' ? undefined : new ResizeObserver(update);
    resize?.observe(scroller);
    return () => {
      scroller.removeEventListener('scroll', update);
      resize?.disconnect();
    };
  }, [scrollRef, count, rowHeight, viewHeight, overscan]);
  return range;
}
