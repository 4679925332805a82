import { SuggestionPicker, type EntityPickerProps } from '../../../components/pickers/SuggestionPicker.tsx';
import { usePickerSearch } from '../../../components/pickers/use-picker-search.ts';
import { USER_AUTOCOMPLETE_MIN_SEARCH } from '@datalab/contract/api/users';
import { useUserSuggestions } from '../api/autocomplete-users.ts';

/** Find a user by name, username or e-mail. */
export function UserPicker({ label = 'User', ...props }: EntityPickerProps) {
  const { lookup, ...search } = usePickerSearch(props.selected);
  const suggestions = useUserSuggestions(lookup);
  return (
    <SuggestionPicker
      {...props}
      {...search}
      label={label}
      placeholder="Search by name, username or e-mail"
      suggestions={(suggestions.data ?? []).map((user) => ({
        id: user.id,
        label: user.name,
        description: [user.username, user.email].filter(Boolean).join(' · '),
      }))}
      isLoading={suggestions.isFetching}
      minSearch={USER_AUTOCOMPLETE_MIN_SEARCH}
    />
  );
}
