import { useCallback, useState } from 'react';

// Selected rows by their index in the reply, so a selection survives re-sorting. Shift extends from the last position
// clicked over the rows as they are shown now.

export function useRowSelection() {
  const [selected, setSelected] = useState<ReadonlySet<number>>(() => new Set());
  const [anchor, setAnchor] = useState<number | null>(null);

  /** `rowAt` gives the reply row shown at a position; `position` is the one clicked. */
  const toggle = useCallback(
    (rowAt: (position: number) => number, position: number, extend: boolean) => {
      setSelected((current) => {
        const next = new Set(current);
        if (extend && anchor !== null) {
          const [from, to] = anchor < position ? [anchor, position] : [position, anchor];
          for (let at = from; at <= to; at += 1) next.add(rowAt(at));
        } else {
          const index = rowAt(position);
          if (next.has(index)) next.delete(index);
          else next.add(index);
        }
        return next;
      });
      setAnchor(position);
    },
    [anchor],
  );

  const clear = useCallback(() => {
    setSelected(new Set());
    setAnchor(null);
  }, []);

  return { selected, toggle, clear };
}
