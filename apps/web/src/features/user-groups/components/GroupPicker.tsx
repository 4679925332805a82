import { SuggestionPicker, type EntityPickerProps } from '../../../components/pickers/SuggestionPicker.tsx';
import { usePickerSearch } from '../../../components/pickers/use-picker-search.ts';
import { useUserGroupSuggestions } from '../api/autocomplete-user-groups.ts';

/** Find a user group by name. */
export function GroupPicker({ label = 'Group', ...props }: EntityPickerProps) {
  const { lookup, ...search } = usePickerSearch(props.selected);
  const suggestions = useUserGroupSuggestions(lookup);
  return (
    <SuggestionPicker
      {...props}
      {...search}
      label={label}
      placeholder="Search groups by name"
      suggestions={(suggestions.data ?? []).map((group) => ({ id: group.id, label: group.name }))}
      isLoading={suggestions.isFetching}
    />
  );
}
