import { queryOptions, useQuery } from '@tanstack/react-query';
import { getAllCollections, type CollectionSummary } from '@datalab/contract/api/collections';
import { MAX_PAGE_SIZE } from '@datalab/contract/paging';
import { apiCall } from '../../../lib/api-client.ts';
import { collectionKeys } from '../keys.ts';

/** Pages read at most: 2,000 collections is far beyond what one person owns. */
const MAX_PAGES = 10;

/** Every collection the caller is an Owner of (their effective role), by name. */
export async function fetchOwnedCollections(signal?: AbortSignal): Promise<CollectionSummary[]> {
  const owned: CollectionSummary[] = [];
  for (let page = 1; page <= MAX_PAGES; page += 1) {
    const reply = await apiCall(getAllCollections, {
      query: { page, pageSize: MAX_PAGE_SIZE, sortBy: 'name', sortDirection: 'asc' },
      signal,
    });
    owned.push(...reply.items.filter((collection) => collection.myRole === 'Owner'));
    if (page * reply.pageSize >= reply.totalCount) break;
  }
  return owned;
}

export function ownedCollectionsQueryOptions() {
  return queryOptions({ queryKey: collectionKeys.owned(), queryFn: ({ signal }) => fetchOwnedCollections(signal) });
}

/** The collections the caller owns: where the playground may run things on their connections. */
export function useOwnedCollections() {
  return useQuery(ownedCollectionsQueryOptions());
}
