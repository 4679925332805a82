import { useState } from 'react';
import { Button, Group, NativeSelect, Stack, Text } from '@mantine/core';
import { IconDatabaseOff, IconTrash } from '@tabler/icons-react';
import { cacheEntryTypes, type CacheEntry } from '@datalab/contract/api/caching';
import { ConfirmAction } from '../../../components/confirm/ConfirmAction.tsx';
import { InlineError } from '../../../components/error/InlineError.tsx';
import { EmptyPanel } from '../../../components/page/EmptyPanel.tsx';
import { PageFrame } from '../../../components/page/PageFrame.tsx';
import { PageLoader } from '../../../components/page/PageLoader.tsx';
import { Pager } from '../../../components/search/Pager.tsx';
import { useFilterState } from '../../../components/search/use-filter-state.ts';
import { useCacheEntries } from '../../../features/cache/api/get-cache-keys.ts';
import { usePurgeCache } from '../../../features/cache/api/purge-cache.ts';
import { useRemoveCacheEntry } from '../../../features/cache/api/remove-cache-entry.ts';
import { CacheEntryTable, entryName } from '../../../features/cache/components/CacheEntryTable.tsx';
import { CacheValueDrawer } from '../../../features/cache/components/CacheValueDrawer.tsx';
import { cacheTypeLabels } from '../../../features/cache/format.ts';
import { formatBytes } from '../../../lib/format.ts';
import { plural } from '../../../lib/format.ts';
import { notifySuccess } from '../../../lib/notify.ts';

const PAGE_SIZE = 20;

/** /management/cache: the result cache's entries by type; look at one, remove one, purge (canManageUsers). */
export function CacheManagementPage() {
  const { page, filter, setFilter, setPage } = useFilterState<'type'>();
  const type = filter('type', cacheEntryTypes);
  const entries = useCacheEntries({ type, page, pageSize: PAGE_SIZE });
  const removeEntry = useRemoveCacheEntry();
  const purge = usePurgeCache();
  const [viewing, setViewing] = useState<CacheEntry | null>(null);

  const handleRemove = async (entry: CacheEntry) => {
    await removeEntry.mutateAsync(entry.key);
    if (viewing?.key === entry.key) setViewing(null);
    notifySuccess(`Removed the cached ${cacheTypeLabels[entry.type].toLowerCase()} of ${entryName(entry)}`);
  };
  const handlePurge = async () => {
    const { removed } = await purge.mutateAsync(type);
    setViewing(null);
    notifySuccess(`Purged ${plural(removed, 'cache entry', 'cache entries')}`);
  };

  const scope = type ? `Every cached ${cacheTypeLabels[type].toLowerCase()} entry` : 'Every entry in the cache';
  const totalCount = entries.data?.totalCount ?? 0;
  const purgeButton = (
    <ConfirmAction
      title={type ? `Purge ${cacheTypeLabels[type].toLowerCase()}` : 'Purge the cache'}
      message={`${scope} (${plural(totalCount, 'entry', 'entries')}) will be removed, on every server instance. Until results are cached again, every call runs against its data source: slower answers and more load on the databases behind them.`}
      confirmLabel={type ? `Purge ${cacheTypeLabels[type].toLowerCase()}` : 'Purge all'}
      onConfirm={handlePurge}
    >
      {(open) => (
        <Button
          color="red"
          variant="light"
          leftSection={<IconTrash size={16} aria-hidden />}
          onClick={open}
          disabled={totalCount === 0}
        >
          {type ? `Purge ${cacheTypeLabels[type].toLowerCase()}` : 'Purge all'}
        </Button>
      )}
    </ConfirmAction>
  );

  let content;
  if (entries.isPending) content = <PageLoader label="Loading cache entries" />;
  else if (entries.isError) content = <InlineError error={entries.error} />;
  else if (entries.data.totalCount === 0) {
    content = (
      <EmptyPanel
        icon={<IconDatabaseOff size={28} stroke={1.5} />}
        title={type ? `No cached ${cacheTypeLabels[type].toLowerCase()}` : 'The cache is empty'}
        description="An entry appears when a data asset with a cache time to live is called, and goes when that time is up, when the asset changes, or when it is removed here."
      />
    );
  } else {
    const totalPages = Math.ceil(entries.data.totalCount / PAGE_SIZE);
    content = (
      <Stack gap="sm">
        <Text size="sm" c="dimmed" aria-live="polite">
          {plural(entries.data.totalCount, 'entry', 'entries')} · {formatBytes(entries.data.totalBytes)}
        </Text>
        <CacheEntryTable entries={entries.data.items} onView={setViewing} onRemove={handleRemove} />
        {totalPages > 1 ? <Pager page={page} totalPages={totalPages} onPageChange={setPage} /> : null}
      </Stack>
    );
  }

  return (
    <PageFrame
      title="Cache management"
      description="Cached results, parameter data and metadata, newest first: what each holds, how big and how old it is, how long it stays and how often it was used."
      actions={purgeButton}
    >
      <Stack gap="md">
        <Group gap="md" align="flex-end">
          <NativeSelect
            label="Type"
            w={200}
            value={type ?? ''}
            onChange={(event) => setFilter('type', event.currentTarget.value || undefined)}
            data={[
              { value: '', label: 'All types' },
              ...cacheEntryTypes.map((t) => ({ value: t, label: cacheTypeLabels[t] })),
            ]}
          />
        </Group>
        {content}
      </Stack>
      <CacheValueDrawer entry={viewing} onClose={() => setViewing(null)} />
    </PageFrame>
  );
}
