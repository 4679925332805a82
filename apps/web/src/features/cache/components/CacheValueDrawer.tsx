import { Code, Drawer, Stack, Table, Text } from '@mantine/core';
import type { CacheEntry, CacheValue } from '@datalab/contract/api/caching';
import { InlineError } from '../../../components/error/InlineError.tsx';
import { PageLoader } from '../../../components/page/PageLoader.tsx';
import { LazyResultGrid } from '../../../components/results/LazyResultGrid.tsx';
import { plural } from '../../../lib/format.ts';
import { useCacheValue } from '../api/get-cache-value.ts';
import { cacheTypeLabels } from '../format.ts';
import { entryName } from './CacheEntryTable.tsx';

export interface CacheValueDrawerProps {
  entry: CacheEntry | null;
  onClose: () => void;
}

function ValueView({ value, name }: { value: CacheValue; name: string }) {
  if (value.type === 'results') {
    return (
      <Stack gap="xs">
        {value.capped ? (
          <Text size="sm" c="dimmed">
            The first {value.rows.length.toLocaleString()} of {plural(value.rowCount, 'row')} are shown.
          </Text>
        ) : null}
        <LazyResultGrid columns={value.columns} rows={value.rows} label={`Cached result of ${name}`} height={520} />
      </Stack>
    );
  }
  if (value.type === 'parameterData') {
    if (value.options.length === 0) return <Text size="sm">No options.</Text>;
    return (
      <Table aria-label={`Cached options of ${name}`} striped>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Label</Table.Th>
            <Table.Th>Value</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {value.options.map((option, index) => (
            <Table.Tr key={index}>
              <Table.Td>{option.label}</Table.Td>
              <Table.Td ff="monospace">{JSON.stringify(option.value)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    );
  }
  return (
    <Code block aria-label={`Cached metadata of ${name}`}>
      {JSON.stringify(value.value, null, 2)}
    </Code>
  );
}

/** One entry's value as its type reads: a result in the result grid, options as a table, metadata as JSON. */
export function CacheValueDrawer({ entry, onClose }: CacheValueDrawerProps) {
  const value = useCacheValue(entry ? { key: entry.key, type: entry.type } : null);
  const name = entry ? entryName(entry) : '';
  let content = null;
  if (entry && value.isPending) content = <PageLoader label="Loading the cached value" />;
  else if (value.isError) content = <InlineError error={value.error} />;
  else if (value.data) content = <ValueView value={value.data} name={name} />;
  return (
    <Drawer
      opened={entry !== null}
      onClose={onClose}
      position="right"
      size="xl"
      title={
        <Text fw={700} size="lg" component="span">
          {entry ? `${cacheTypeLabels[entry.type]} of ${name}` : ''}
        </Text>
      }
    >
      <Stack gap="md">
        {entry ? (
          <Text size="xs" c="dimmed" ff="monospace" style={{ wordBreak: 'break-all' }}>
            {entry.key}
          </Text>
        ) : null}
        {content}
      </Stack>
    </Drawer>
  );
}
