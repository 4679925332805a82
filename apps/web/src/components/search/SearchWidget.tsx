import type { ReactNode } from 'react';
import { Stack } from '@mantine/core';
import { Pager } from './Pager.tsx';
import { SearchInput } from './SearchInput.tsx';

export interface SearchWidgetProps {
  /** The applied search text. */
  value: string;
  onSearch: (keyword: string) => void;
  page: number;
  totalPages: number;
  onPageChange: (page: number) => void;
  placeholder?: string;
  /** The results, shown between the search box and the pager. */
  children?: ReactNode;
}

/** The generic search widget of the list screens: search with recent history, results, pager. */
export function SearchWidget({ value, onSearch, page, totalPages, onPageChange, placeholder, children }: SearchWidgetProps) {
  return (
    <Stack gap="md">
      <SearchInput value={value} onSearch={onSearch} placeholder={placeholder} />
      {children}
      <Pager page={page} totalPages={totalPages} onPageChange={onPageChange} />
    </Stack>
  );
}
