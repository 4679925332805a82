import { useState } from 'react';
import { useDebouncedValue } from '@mantine/hooks';
import { SuggestionPicker, type Suggestion } from '../../../components/pickers/SuggestionPicker.tsx';
import { useUserSuggestions } from '../api/autocomplete-users.ts';

export interface UserPickerProps {
  label?: string;
  selected: Suggestion | null;
  onSelect: (suggestion: Suggestion | null) => void;
  excludedIds?: readonly number[];
}

/** Find a user by name, username or e-mail. */
export function UserPicker({ label = 'User', selected, onSelect, excludedIds }: UserPickerProps) {
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 250);
  // Typing the picked user's own label again would only find them: ask for what was typed.
  const suggestions = useUserSuggestions(selected && search === selected.label ? '' : debounced);
  const [shownSelection, setShownSelection] = useState(selected);
  if (shownSelection !== selected) {
    setShownSelection(selected);
    if (!selected) setSearch('');
  }
  return (
    <SuggestionPicker
      label={label}
      placeholder="Search by name, username or e-mail"
      search={search}
      onSearchChange={setSearch}
      suggestions={(suggestions.data ?? []).map((user) => ({
        id: user.id,
        label: user.name,
        description: [user.username, user.email].filter(Boolean).join(' · '),
      }))}
      isLoading={suggestions.isFetching}
      selected={selected}
      onSelect={onSelect}
      excludedIds={excludedIds}
    />
  );
}
