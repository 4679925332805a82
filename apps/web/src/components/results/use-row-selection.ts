import { useCallback, useState } from 'react';

// Selected rows by their table id (the index in the reply), so a selection survives re-sorting. Shift extends from
// the last row clicked over the rows as they are shown now.

export function useRowSelection() {
  const [selected, setSelected] = useState<ReadonlySet<string>>(() => new Set());
  const [anchor, setAnchor] = useState<number | null>(null);

  const toggle = useCallback(
    (shownIds: readonly string[], index: number, extend: boolean) => {
      setSelected((current) => {
        const next = new Set(current);
        if (extend && anchor !== null) {
          const [from, to] = anchor < index ? [anchor, index] : [index, anchor];
          for (let i = from; i <= to; i += 1) next.add(shownIds[i] ?? '');
          next.delete('');
        } else {
          const id = shownIds[index];
          if (id === undefined) return current;
          if (next.has(id)) next.delete(id);
          else next.add(id);
        }
        return next;
      });
      setAnchor(index);
    },
    [anchor],
  );

  const clear = useCallback(() => {
    setSelected(new Set());
    setAnchor(null);
  }, []);

  return { selected, toggle, clear };
}
