import { Loader, Select, Stack, Text } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';

// A search-as-you-type picker over suggestions the server finds (users, groups). The server does
// the matching, so the list is shown as it arrives; the picked entry stays shown while the
// suggestions change under it.

export interface Suggestion {
  id: number;
  label: string;
  /** A second line: username, e-mail. */
  description?: string;
}

export interface SuggestionPickerProps {
  label: string;
  placeholder?: string;
  /** The text typed so far; the feature looks suggestions up with it. */
  search: string;
  onSearchChange: (search: string) => void;
  suggestions: Suggestion[];
  isLoading?: boolean;
  selected: Suggestion | null;
  onSelect: (suggestion: Suggestion | null) => void;
  /** Ids that may not be picked (already a member, the group itself). */
  excludedIds?: readonly number[];
  error?: string | null;
  disabled?: boolean;
  /** The server looks nothing up for fewer characters than this. */
  minSearch?: number;
}

/** What a feature's picker (users, groups) takes; the feature finds the suggestions. */
export type EntityPickerProps = Pick<SuggestionPickerProps, 'selected' | 'onSelect' | 'excludedIds' | 'error'> & {
  label?: string;
};

function nothingFound(isLoading: boolean, search: string, hasHidden: boolean, minSearch: number): string {
  if (isLoading) return 'Searching…';
  if (hasHidden) return 'Everyone matching is already listed';
  const typed = search.trim().length;
  if (typed === 0) return minSearch > 1 ? `Type at least ${minSearch} characters to search` : 'Type to search';
  if (typed < minSearch) return `Type at least ${minSearch} characters`;
  return 'Nothing matches';
}

export function SuggestionPicker({
  label,
  placeholder,
  search,
  onSearchChange,
  suggestions,
  isLoading = false,
  selected,
  onSelect,
  excludedIds = [],
  error,
  disabled,
  minSearch = 0,
}: SuggestionPickerProps) {
  const visible = suggestions.filter((s) => !excludedIds.includes(s.id));
  const all = selected && !visible.some((s) => s.id === selected.id) ? [selected, ...visible] : visible;

  return (
    <Select<number>
      label={label}
      placeholder={placeholder}
      searchable
      clearable
      searchValue={search}
      onSearchChange={onSearchChange}
      data={all.map((s) => ({ value: s.id, label: s.label }))}
      filter={({ options }) => options}
      value={selected?.id ?? null}
      onChange={(id) => onSelect(all.find((s) => s.id === id) ?? null)}
      nothingFoundMessage={nothingFound(isLoading, search, suggestions.length > 0, minSearch)}
      leftSection={isLoading ? <Loader size={14} /> : <IconSearch size={16} stroke={1.5} />}
      renderOption={({ option }) => {
        const description = all.find((s) => s.id === option.value)?.description;
        return (
          <Stack gap={0}>
            <Text size="sm">{option.label}</Text>
            {description ? (
              <Text size="xs" c="dimmed">
                {description}
              </Text>
            ) : null}
          </Stack>
        );
      }}
      error={error}
      disabled={disabled}
      comboboxProps={{ withinPortal: true }}
    />
  );
}
