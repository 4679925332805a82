import { Badge, Button, Group, Table, Text, Tooltip } from '@mantine/core';
import { IconEye, IconTrash } from '@tabler/icons-react';
import type { CacheEntry } from '@datalab/contract/api/caching';
import { texts } from '@datalab/contract/texts';
import { ConfirmAction } from '../../../components/confirm/ConfirmAction.tsx';
import { type DataColumn, DataTable } from '../../../components/table/DataTable.tsx';
import { formatDateTime } from '../../../lib/format.ts';
import { formatBytes } from '../../../lib/format.ts';
import { cacheTypeLabels, formatSpan } from '../format.ts';

const columns: DataColumn[] = [
  { label: 'Asset' },
  { label: 'Type' },
  { label: 'Size', ta: 'right' },
  { label: 'Age', ta: 'right' },
  { label: 'Time to live', ta: 'right' },
  { label: 'Hits', ta: 'right' },
  { label: 'Actions', ta: 'right' },
];

export interface CacheEntryTableProps {
  entries: CacheEntry[];
  onView: (entry: CacheEntry) => void;
  onRemove: (entry: CacheEntry) => Promise<unknown>;
}

/** What an entry is called in buttons and dialogs: its asset, or its key when it names none. */
export const entryName = (entry: CacheEntry) => entry.asset?.name ?? entry.key;

export function CacheEntryTable({ entries, onView, onRemove }: CacheEntryTableProps) {
  return (
    <DataTable label="Cache entries" columns={columns} minWidth={860}>
      {entries.map((entry) => (
        <Table.Tr key={entry.key}>
          <Table.Td maw={320}>
            <Text fw={500} size="sm">
              {entry.asset?.name ?? texts.none}
            </Text>
            <Text size="xs" c="dimmed" ff="monospace" truncate="end" title={entry.key}>
              {entry.key}
            </Text>
          </Table.Td>
          <Table.Td>
            <Badge variant="light" size="sm">
              {cacheTypeLabels[entry.type]}
            </Badge>
          </Table.Td>
          <Table.Td ta="right">{formatBytes(entry.size)}</Table.Td>
          <Table.Td ta="right">
            <Tooltip label={`Cached ${formatDateTime(entry.createdAt)}`}>
              <span>{formatSpan(entry.ageMs)}</span>
            </Tooltip>
          </Table.Td>
          <Table.Td ta="right">{formatSpan(entry.ttlMs)}</Table.Td>
          <Table.Td ta="right">{entry.hits.toLocaleString()}</Table.Td>
          <Table.Td>
            <Group gap="xs" justify="flex-end" wrap="nowrap">
              <Button
                size="xs"
                variant="default"
                leftSection={<IconEye size={14} aria-hidden />}
                aria-label={`View ${entryName(entry)}`}
                onClick={() => onView(entry)}
              >
                View
              </Button>
              <ConfirmAction
                title="Remove cache entry"
                message={`The cached ${cacheTypeLabels[entry.type].toLowerCase()} of ${entryName(entry)} will be removed. The next identical call runs against the data source again.`}
                confirmLabel="Remove"
                onConfirm={() => onRemove(entry)}
              >
                {(open) => (
                  <Button
                    size="xs"
                    variant="subtle"
                    color="red"
                    leftSection={<IconTrash size={14} aria-hidden />}
                    aria-label={`Remove ${entryName(entry)}`}
                    onClick={open}
                  >
                    Remove
                  </Button>
                )}
              </ConfirmAction>
            </Group>
          </Table.Td>
        </Table.Tr>
      ))}
    </DataTable>
  );
}
