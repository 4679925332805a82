import { Button } from '@mantine/core';
import { IconFolderPlus, IconFolders } from '@tabler/icons-react';
import { Link } from 'react-router';
import { paths } from '@datalab/contract/paths';
import { EmptyPanel } from '../../../components/page/EmptyPanel.tsx';
import { PageFrame } from '../../../components/page/PageFrame.tsx';
import { PagedList } from '../../../components/search/PagedList.tsx';
import { useSearchState } from '../../../components/search/use-search-state.ts';
import { useCollections } from '../../../features/collections/api/get-collections.ts';
import { CollectionCards } from '../../../features/collections/components/CollectionCards.tsx';

const PAGE_SIZE = 12;

export function CollectionListPage() {
  const searchState = useSearchState();
  const { search, page } = searchState;
  const collections = useCollections({ search, page, pageSize: PAGE_SIZE });

  const newButton = (
    <Button component={Link} to={paths.collectionCreate} leftSection={<IconFolderPlus size={18} />}>
      New collection
    </Button>
  );

  return (
    <PageFrame
      title="Collections"
      description="Collections group related data assets with the connections they run on and the people allowed to use them."
      actions={newButton}
    >
      <PagedList
        state={searchState}
        pageSize={PAGE_SIZE}
        query={collections}
        placeholder="Search collections by name or description"
        loadingLabel="Loading collections"
        noun="collection"
        isCountLive
        noMatch={{
          title: `No collections match “${search}”`,
          description: "Try another word from a collection's name or description, or clear the search to see them all.",
          canClear: true,
        }}
        empty={
          <EmptyPanel
            icon={<IconFolders size={28} stroke={1.5} />}
            title="No collections yet"
            description="Collections you hold a role in appear here. Create your own collection to start adding data, or ask a collection's owner to give you a role in theirs."
            actions={newButton}
          />
        }
      >
        {(items) => <CollectionCards collections={items} />}
      </PagedList>
    </PageFrame>
  );
}
