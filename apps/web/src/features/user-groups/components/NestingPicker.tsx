import { SuggestionPicker, type EntityPickerProps } from '../../../components/pickers/SuggestionPicker.tsx';
import { usePickerSearch } from '../../../components/pickers/use-picker-search.ts';
import { useNestingCandidates } from '../api/get-nesting-candidates.ts';

/** Find a group to nest in `groupId`: the server offers only those that make no cycle and stay within the depth. */
export function NestingPicker({ groupId, label = 'Group', ...props }: EntityPickerProps & { groupId: number }) {
  const { lookup, ...search } = usePickerSearch(props.selected);
  const candidates = useNestingCandidates(groupId, lookup);
  return (
    <SuggestionPicker
      {...props}
      {...search}
      label={label}
      placeholder="Search groups by name"
      suggestions={(candidates.data ?? []).map((group) => ({ id: group.id, label: group.name }))}
      isLoading={candidates.isFetching}
    />
  );
}
