import { useState, type KeyboardEvent } from 'react';
import { ActionIcon, Autocomplete } from '@mantine/core';
import { IconHistory, IconSearch } from '@tabler/icons-react';
import { addToSearchHistory, readSearchHistory } from './search-history.ts';

export interface SearchInputProps {
  /** The search currently applied. */
  value: string;
  onSearch: (keyword: string) => void;
  placeholder?: string;
  label?: string;
  historyLimit?: number;
}

/** A search box offering recent searches; Enter, the button or a picked suggestion searches. */
export function SearchInput({ value, onSearch, placeholder = 'Search', label = 'Search', historyLimit }: SearchInputProps) {
  const [draft, setDraft] = useState(value);
  const [applied, setApplied] = useState(value);
  const [history, setHistory] = useState(() => readSearchHistory({ limit: historyLimit }));
  // A new search applied from outside (e.g. the URL) replaces what is being typed.
  if (value !== applied) {
    setApplied(value);
    setDraft(value);
  }

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
      onChange={setDraft}
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
