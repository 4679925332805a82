import { useState } from 'react';
import { useDebouncedValue } from '@mantine/hooks';
import { SuggestionPicker, type Suggestion } from '../../../components/pickers/SuggestionPicker.tsx';
import { useUserGroupSuggestions } from '../api/autocomplete-user-groups.ts';

export interface GroupPickerProps {
  label?: string;
  selected: Suggestion | null;
  onSelect: (suggestion: Suggestion | null) => void;
  excludedIds?: readonly number[];
  error?: string | null;
}

/** Find a user group by name. */
export function GroupPicker({ label = 'Group', selected, onSelect, excludedIds, error }: GroupPickerProps) {
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 250);
  const suggestions = useUserGroupSuggestions(selected && search === selected.label ? '' : debounced);
  const [shownSelection, setShownSelection] = useState(selected);
  if (shownSelection !== selected) {
    setShownSelection(selected);
    if (!selected) setSearch('');
  }
  return (
    <SuggestionPicker
      label={label}
      placeholder="Search groups by name"
      search={search}
      onSearchChange={setSearch}
      suggestions={(suggestions.data ?? []).map((group) => ({ id: group.id, label: group.name }))}
      isLoading={suggestions.isFetching}
      selected={selected}
      onSelect={onSelect}
      excludedIds={excludedIds}
      error={error}
    />
  );
}
