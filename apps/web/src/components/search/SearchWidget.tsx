import type { ReactNode } from 'react';
import { Box, Group, Stack } from '@mantine/core';
import { Pager } from './Pager.tsx';
import { SearchInput, type SearchOptions } from './SearchInput.tsx';

export interface SearchWidgetProps {
  /** The applied search text. */
  value: string;
  onSearch: (keyword: string, options?: SearchOptions) => void;
  page: number;
  totalPages: number;
  onPageChange: (page: number) => void;
  placeholder?: string;
  /** Beside the search box: a sort menu, filters. */
  aside?: ReactNode;
  /** The results, shown between the search box and the pager. */
  children?: ReactNode;
}

/** The generic search widget of the list screens: search with recent history, results, pager. */
export function SearchWidget(props: SearchWidgetProps) {
  const { value, onSearch, page, totalPages, onPageChange, placeholder, aside, children } = props;
  const input = <SearchInput value={value} onSearch={onSearch} placeholder={placeholder} />;
  return (
    <Stack gap="md">
      {aside ? (
        <Group align="flex-end" gap="md" wrap="nowrap">
          <Box flex={1}>{input}</Box>
          {aside}
        </Group>
      ) : (
        input
      )}
      {children}
      <Pager page={page} totalPages={totalPages} onPageChange={onPageChange} />
    </Stack>
  );
}
