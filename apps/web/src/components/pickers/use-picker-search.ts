import { useState } from 'react';
import { useDebouncedValue } from '@mantine/hooks';
import type { Suggestion } from './SuggestionPicker.tsx';

/** The typed text of a feature's picker and the text to look suggestions up with (debounced). */
export function usePickerSearch(selected: Suggestion | null) {
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 250);
  // Typing the picked entry's own label again would only find it: ask for what was typed.
  const lookup = selected && search === selected.label ? '' : debounced;
  const [shownSelection, setShownSelection] = useState(selected);
  if (shownSelection !== selected) {
    setShownSelection(selected);
    if (!selected) setSearch('');
  }
  return { search, onSearchChange: setSearch, lookup };
}
