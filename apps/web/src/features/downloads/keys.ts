import type { PageQuery } from '@datalab/contract/paging';

// Query keys of the downloads feature. The scope's root is its own: nothing outside the feature invalidates it.

export const downloadKeys = {
  all: ['downloads'] as const,
  lists: () => [...downloadKeys.all, 'list'] as const,
  list: (query: PageQuery) => [...downloadKeys.lists(), query] as const,
};
