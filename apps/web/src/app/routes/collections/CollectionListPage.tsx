import { useEffect } from 'react';
import { Button, Text } from '@mantine/core';
import { IconFolderPlus, IconFolders, IconSearchOff } from '@tabler/icons-react';
import { Link } from 'react-router';
import { paths } from '@datalab/contract/paths';
import { InlineError } from '../../../components/error/InlineError.tsx';
import { EmptyPanel } from '../../../components/page/EmptyPanel.tsx';
import { PageFrame } from '../../../components/page/PageFrame.tsx';
import { PageLoader } from '../../../components/page/PageLoader.tsx';
import { SearchWidget } from '../../../components/search/SearchWidget.tsx';
import { useSearchState } from '../../../components/search/use-search-state.ts';
import { useCollections } from '../../../features/collections/api/get-collections.ts';
import { CollectionCards } from '../../../features/collections/components/CollectionCards.tsx';
import { plural } from '../../../lib/format.ts';

const PAGE_SIZE = 12;

export function CollectionListPage() {
  const { search, page, setSearch, setPage, clampToTotal } = useSearchState();
  const collections = useCollections({ search, page, pageSize: PAGE_SIZE });
  const totalCount = collections.data?.totalCount;
  useEffect(() => {
    if (totalCount !== undefined) clampToTotal(totalCount, PAGE_SIZE);
  }, [totalCount, clampToTotal]);

  const newButton = (
    <Button component={Link} to={paths.collectionCreate} leftSection={<IconFolderPlus size={18} />}>
      New collection
    </Button>
  );

  let content;
  if (collections.isPending) content = <PageLoader label="Loading collections" />;
  else if (collections.isError) content = <InlineError error={collections.error} />;
  else if (collections.data.items.length === 0 && search) {
    content = (
      <EmptyPanel
        icon={<IconSearchOff size={28} stroke={1.5} />}
        title={`No collections match “${search}”`}
        description="Try another word from a collection's name or description, or clear the search to see them all."
        actions={
          <Button variant="default" size="xs" onClick={() => setSearch('')}>
            Clear search
          </Button>
        }
      />
    );
  } else if (collections.data.items.length === 0) {
    content = (
      <EmptyPanel
        icon={<IconFolders size={28} stroke={1.5} />}
        title="No collections yet"
        description="Collections you hold a role in appear here. Create your own collection to start adding data, or ask a collection's owner to give you a role in theirs."
        actions={newButton}
      />
    );
  } else {
    content = (
      <>
        <Text size="sm" c="dimmed" aria-live="polite">
          {plural(collections.data.totalCount, 'collection')}
          {search ? ` matching “${search}”` : ''}
        </Text>
        <CollectionCards collections={collections.data.items} />
      </>
    );
  }

  return (
    <PageFrame
      title="Collections"
      description="Collections group related data assets with the connections they run on and the people allowed to use them."
      actions={newButton}
    >
      <SearchWidget
        value={search}
        onSearch={setSearch}
        page={page}
        totalPages={totalCount === undefined ? 1 : Math.ceil(totalCount / PAGE_SIZE)}
        onPageChange={setPage}
        placeholder="Search collections by name or description"
      >
        {content}
      </SearchWidget>
    </PageFrame>
  );
}
