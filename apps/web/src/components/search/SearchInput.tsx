import { useState, type KeyboardEvent } from 'react';
import { ActionIcon, Autocomplete } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { IconHistory, IconSearch } from '@tabler/icons-react';
import { addToSearchHistory, readSearchHistory } from './search-history.ts';

/** How long typing must pause before the list follows it. */
export const SEARCH_AS_YOU_TYPE_MS = 300;

export interface SearchOptions {
  /** Typing (not Enter) replaces the current history entry, so Back skips the half-typed words. */
  isTyping?: boolean;
}

export interface SearchInputProps {
  /** The search currently applied. */
  value: string;
  onSearch: (keyword: string, options?: SearchOptions) => void;
  placeholder?: string;
  label?: string;
  historyLimit?: number;
}

/**
 * A search box offering recent searches. The list follows the text as it is typed (after a short pause);
 * Enter, the button or a picked suggestion searches at once and remembers the search.
 */
export function SearchInput({
  value,
  onSearch,
  placeholder = 'Search',
  label = 'Search',
  historyLimit,
}: SearchInputProps) {
  const [draft, setDraft] = useState(value);
  const [applied, setApplied] = useState(value);
  const [history, setHistory] = useState(() => readSearchHistory({ limit: historyLimit }));
  // A new search applied from outside (Back, a link) replaces what is being typed; the search this box
  // sent itself comes back as the text already typed.
  if (value !== applied) {
    setApplied(value);
    if (value !== draft.trim()) setDraft(value);
  }
  const searchAsYouType = useDebouncedCallback((text: string) => {
    const keyword = text.trim();
    if (keyword !== value) onSearch(keyword, { isTyping: true });
  }, SEARCH_AS_YOU_TYPE_MS);
  const handleChange = (text: string) => {
    setDraft(text);
    searchAsYouType(text);
  };

  const handleSearch = (keyword: string) => {
    setHistory(addToSearchHistory(keyword, { limit: historyLimit }));
    onSearch(keyword.trim());
  };

  const handleKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== 'Enter' || event.nativeEvent.isComposing) return;
    // With a suggestion highlighted, Enter picks it (onOptionSubmit) instead of the typed text.
    if (event.currentTarget.getAttribute('aria-activedescendant')) return;
    handleSearch(draft);
  };

  return (
    <Autocomplete
      aria-label={label}
      placeholder={placeholder}
      value={draft}
      onChange={handleChange}
      data={[{ group: 'Recent searches', items: history }]}
      onOptionSubmit={(keyword) => {
        setDraft(keyword);
        handleSearch(keyword);
      }}
      onKeyDown={handleKeyDown}
      openOnFocus
      leftSection={history.length > 0 ? <IconHistory size={16} stroke={1.5} /> : <IconSearch size={16} stroke={1.5} />}
      rightSection={
        <ActionIcon variant="subtle" aria-label="Run search" onClick={() => handleSearch(draft)}>
          <IconSearch size={16} />
        </ActionIcon>
      }
      comboboxProps={{ withinPortal: true }}
    />
  );
}
