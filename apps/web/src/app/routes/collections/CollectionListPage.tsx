import { Button, Group, Select } from '@mantine/core';
import { IconDatabase, IconFolderPlus, IconFolders } from '@tabler/icons-react';
import { Link } from 'react-router';
import { collectionSortColumns } from '@datalab/contract/api/collections';
import { paths } from '@datalab/contract/paths';
import { EmptyPanel } from '../../../components/page/EmptyPanel.tsx';
import { PageFrame } from '../../../components/page/PageFrame.tsx';
import { PagedList } from '../../../components/search/PagedList.tsx';
import { useSearchState } from '../../../components/search/use-search-state.ts';
import { useSortState, type SortDirection } from '../../../components/search/use-sort-state.ts';
import { useCurrentUser } from '../../../features/account/api/get-current-user.ts';
import { useCollections } from '../../../features/collections/api/get-collections.ts';
import { CollectionCards } from '../../../features/collections/components/CollectionCards.tsx';

const PAGE_SIZE = 12;

type CollectionSort = (typeof collectionSortColumns)[number];
const SORT_OPTIONS: { value: `${CollectionSort}:${SortDirection}`; label: string }[] = [
  { value: 'name:asc', label: 'Name, A to Z' },
  { value: 'name:desc', label: 'Name, Z to A' },
  { value: 'updatedAt:desc', label: 'Recently changed' },
  { value: 'createdAt:desc', label: 'Newest' },
  { value: 'createdAt:asc', label: 'Oldest' },
];

export function CollectionListPage() {
  const searchState = useSearchState();
  const { search, page } = searchState;
  const sort = useSortState(collectionSortColumns, 'name');
  const collections = useCollections({
    search,
    page,
    pageSize: PAGE_SIZE,
    sortBy: sort.sortBy,
    sortDirection: sort.sortDirection,
  });
  const handleSort = (value: string | null) => {
    const [column, direction] = (value ?? '').split(':');
    const known = collectionSortColumns.find((candidate) => candidate === column);
    if (known) sort.setSort(known, direction === 'desc' ? 'desc' : 'asc');
  };
  const sortMenu = (
    <Select
      label="Sort by"
      data={SORT_OPTIONS}
      value={`${sort.sortBy}:${sort.sortDirection}`}
      onChange={handleSort}
      allowDeselect={false}
      w={200}
    />
  );
  // Creating needs canManageUsers or a creator group (the server decides and says so).
  const canCreate = useCurrentUser().data?.canCreateCollections === true;

  const newButton = canCreate ? (
    <Button component={Link} to={paths.collectionCreate} leftSection={<IconFolderPlus size={18} />}>
      New collection
    </Button>
  ) : null;

  return (
    <PageFrame
      title="Collections"
      description="Collections group related data assets with the connections they run on and the people allowed to use them."
      actions={
        // Every asset the user may see, across collections: the Data Assets entry of the navigation shows only in
        // developer mode, so the list is offered here too.
        <Group gap="sm">
          <Button component={Link} to={paths.dataSources} variant="default" leftSection={<IconDatabase size={18} />}>
            All data assets
          </Button>
          {newButton}
        </Group>
      }
    >
      <PagedList
        state={searchState}
        pageSize={PAGE_SIZE}
        query={collections}
        placeholder="Search collections by name or description"
        loadingLabel="Loading collections"
        noun="collection"
        isCountLive
        aside={sortMenu}
        noMatch={{
          title: `No collections match “${search}”`,
          description: "Try another word from a collection's name or description, or clear the search to see them all.",
          canClear: true,
        }}
        empty={
          <EmptyPanel
            icon={<IconFolders size={28} stroke={1.5} />}
            title="No collections yet"
            description={
              canCreate
                ? "Collections you hold a role in appear here. Create your own collection to start adding data, or ask a collection's owner to give you a role in theirs."
                : "Collections you hold a role in appear here. Ask a collection's owner to give you a role in theirs."
            }
            actions={newButton}
          />
        }
      >
        {(items) => <CollectionCards collections={items} />}
      </PagedList>
    </PageFrame>
  );
}
