import { Anchor, Table, Text } from '@mantine/core';
import type { ApplicationLogItem } from '@datalab/contract/api/application-logs';
import { type DataColumn, DataTable } from '../../../components/table/DataTable.tsx';
import { formatDateTime } from '../../../lib/format.ts';
import { LevelBadge } from './LevelBadge.tsx';
import { RequestIdCell } from './RequestIdCell.tsx';

const columns: DataColumn[] = [
  { label: 'Time', w: 170 },
  { label: 'Level', w: 80 },
  { label: 'Category', w: 110 },
  { label: 'Message' },
  { label: 'User', w: 160 },
  { label: 'Request', w: 170 },
];

export interface LogTableProps {
  records: ApplicationLogItem[];
  onOpen: (record: ApplicationLogItem) => void;
}

/** Records newest first; the message opens the record, the request id shows that request's records. */
export function LogTable({ records, onOpen }: LogTableProps) {
  return (
    <DataTable label="Application log" columns={columns} minWidth={960}>
      {records.map((record) => (
        <Table.Tr key={record.id}>
          <Table.Td>
            <Text size="sm">{formatDateTime(record.createdAt)}</Text>
          </Table.Td>
          <Table.Td>
            <LevelBadge level={record.level} />
          </Table.Td>
          <Table.Td>
            <Text size="sm">{record.category}</Text>
          </Table.Td>
          <Table.Td>
            <Anchor
              component="button"
              type="button"
              size="sm"
              ta="left"
              lineClamp={2}
              style={{ wordBreak: 'break-word' }}
              onClick={() => onOpen(record)}
            >
              {record.message || '(no message)'}
              {record.messageTruncated ? '…' : ''}
            </Anchor>
          </Table.Td>
          <Table.Td>
            <Text size="sm">{record.user?.name ?? '—'}</Text>
          </Table.Td>
          <Table.Td>
            {record.requestId ? <RequestIdCell requestId={record.requestId} /> : <Text size="sm">—</Text>}
          </Table.Td>
        </Table.Tr>
      ))}
    </DataTable>
  );
}
