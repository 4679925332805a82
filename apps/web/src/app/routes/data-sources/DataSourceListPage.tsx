import { Group, Select } from '@mantine/core';
import { IconDatabaseOff } from '@tabler/icons-react';
import { dataSourceKinds } from '@datalab/contract/api/data-sources';
import { EmptyPanel } from '../../../components/page/EmptyPanel.tsx';
import { PageFrame } from '../../../components/page/PageFrame.tsx';
import { PagedList } from '../../../components/search/PagedList.tsx';
import { useFilterState } from '../../../components/search/use-filter-state.ts';
import { useSearchState } from '../../../components/search/use-search-state.ts';
import { useCollections } from '../../../features/collections/api/get-collections.ts';
import { useDataSources } from '../../../features/data-sources/api/get-data-sources.ts';
import { DataSourceTable, kindLabels } from '../../../features/data-sources/components/DataSourceTable.tsx';

const PAGE_SIZE = 20;
const KIND_OPTIONS = dataSourceKinds.map((kind) => ({ value: kind, label: kindLabels[kind] }));

export function DataSourceListPage() {
  const searchState = useSearchState();
  const { search, page } = searchState;
  const { filter, setFilter } = useFilterState<'collection' | 'kind'>();
  const collectionUid = filter('collection');
  const kind = filter('kind', dataSourceKinds);
  const dataSources = useDataSources({ search, page, pageSize: PAGE_SIZE, collectionUid, kind });
  const collections = useCollections({ search: '', page: 1, pageSize: 100, sortBy: 'name', sortDirection: 'asc' });
  const collectionOptions = (collections.data?.items ?? []).map((item) => ({ value: item.uid, label: item.name }));
  const isFiltered = Boolean(search || collectionUid || kind);

  const filters = (
    <Group gap="sm" wrap="nowrap">
      <Select
        label="Collection"
        placeholder="All collections"
        data={collectionOptions}
        value={collectionUid ?? null}
        onChange={(value) => setFilter('collection', value)}
        clearable
        searchable
        w={220}
      />
      <Select
        label="Type"
        placeholder="All types"
        data={KIND_OPTIONS}
        value={kind ?? null}
        onChange={(value) => setFilter('kind', value)}
        clearable
        w={150}
      />
    </Group>
  );

  return (
    <PageFrame
      title="Data assets"
      description="Every data asset you can call, across your collections: the stored queries data owners have published, ready to run with your parameters."
    >
      <PagedList
        state={searchState}
        pageSize={PAGE_SIZE}
        query={dataSources}
        placeholder="Search data assets by name or description"
        loadingLabel="Loading data assets"
        noun="data asset"
        isCountLive
        aside={filters}
        noMatch={{
          title: `No data assets match “${search}”`,
          description: 'Try another word from an asset’s name or description, or clear the search and filters.',
          canClear: true,
        }}
        empty={
          <EmptyPanel
            icon={<IconDatabaseOff size={28} stroke={1.5} />}
            title={isFiltered ? 'No data assets match these filters' : 'No data assets yet'}
            description={
              isFiltered
                ? 'Choose another collection or type, or clear the filters to see every asset you can call.'
                : 'Data assets of the collections you hold a role in appear here. Ask a collection’s owner for a role, or create an asset in a collection you edit.'
            }
          />
        }
      >
        {(items) => <DataSourceTable dataSources={items} />}
      </PagedList>
    </PageFrame>
  );
}
