import { useEffect, type ReactNode } from 'react';
import { Button, Text } from '@mantine/core';
import { IconSearchOff } from '@tabler/icons-react';
import type { UseQueryResult } from '@tanstack/react-query';
import { plural } from '../../lib/format.ts';
import { InlineError } from '../error/InlineError.tsx';
import { EmptyPanel } from '../page/EmptyPanel.tsx';
import { PageLoader } from '../page/PageLoader.tsx';
import { SearchWidget } from './SearchWidget.tsx';
import type { SearchState } from './use-search-state.ts';

export interface PagedListProps<T> {
  /** The screen's search and page (useSearchState), which its query was asked with. */
  state: SearchState;
  pageSize: number;
  query: UseQueryResult<{ items: T[]; totalCount: number }>;
  placeholder: string;
  loadingLabel: string;
  /** What is counted above the results: '3 groups matching “…”'. */
  noun: string;
  /** Shown when nothing matches the search; with canClear it offers to clear it. */
  noMatch: { title: string; description: string; canClear?: boolean };
  /** Shown when there is nothing at all. */
  empty: ReactNode;
  /** Announce the count to screen readers as it changes. */
  isCountLive?: boolean;
  /** Beside the search box (a sort menu). */
  aside?: ReactNode;
  children: (items: T[]) => ReactNode;
}

/** A list screen's results under the search widget: loading → error → empty → data, and the pager. */
export function PagedList<T>(props: PagedListProps<T>) {
  const { state, pageSize, query, placeholder, loadingLabel, noun, noMatch, empty, isCountLive, aside, children } =
    props;
  const { search, page, setSearch, setPage, clampToTotal } = state;
  const totalCount = query.data?.totalCount;
  useEffect(() => {
    if (totalCount !== undefined) clampToTotal(totalCount, pageSize);
  }, [totalCount, pageSize, clampToTotal]);

  let content;
  if (query.isPending) content = <PageLoader label={loadingLabel} />;
  else if (query.isError) content = <InlineError error={query.error} />;
  else if (query.data.items.length === 0 && search) {
    content = (
      <EmptyPanel
        icon={<IconSearchOff size={28} stroke={1.5} />}
        title={noMatch.title}
        description={noMatch.description}
        actions={
          noMatch.canClear ? (
            <Button variant="default" size="xs" onClick={() => setSearch('')}>
              Clear search
            </Button>
          ) : undefined
        }
      />
    );
  } else if (query.data.items.length === 0) content = empty;
  else {
    content = (
      <>
        <Text size="sm" c="dimmed" aria-live={isCountLive ? 'polite' : undefined}>
          {plural(query.data.totalCount, noun)}
          {search ? ` matching “${search}”` : ''}
        </Text>
        {children(query.data.items)}
      </>
    );
  }

  return (
    <SearchWidget
      value={search}
      onSearch={setSearch}
      page={page}
      totalPages={totalCount === undefined ? 1 : Math.ceil(totalCount / pageSize)}
      onPageChange={setPage}
      placeholder={placeholder}
      aside={aside}
    >
      {content}
    </SearchWidget>
  );
}
