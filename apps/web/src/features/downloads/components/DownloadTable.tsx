import { Anchor, Badge, Button, Stack, Table, Text } from '@mantine/core';
import { IconDownload, IconX } from '@tabler/icons-react';
import { Link } from 'react-router';
import type { DownloadJob } from '@datalab/contract/api/downloads';
import { paths } from '@datalab/contract/paths';
import { texts } from '@datalab/contract/texts';
import { type DataColumn, DataTable } from '../../../components/table/DataTable.tsx';
import { formatDateTime } from '../../../lib/format.ts';
import { formatLabels, parametersText, progressText, stateColors } from '../format.ts';
import { TruncationNotice } from './TruncationNotice.tsx';

const columns: DataColumn[] = [
  { label: 'Data asset' },
  { label: 'Parameters' },
  { label: 'Format' },
  { label: 'State' },
  { label: 'Created' },
  { label: 'Expires' },
  { label: 'File', ta: 'right' },
];

export interface DownloadTableProps {
  jobs: DownloadJob[];
  /** The job whose file is being fetched, if any. */
  savingId: string | null;
  onSave: (job: DownloadJob) => void;
  /** The job being cancelled, if any. */
  cancellingId: string | null;
  onCancel: (job: DownloadJob) => void;
}

function StateCell({ job }: { job: DownloadJob }) {
  const isProblem = job.state === 'Failed';
  return (
    <Stack gap={4} align="flex-start">
      <Badge variant="light" color={stateColors[job.state]}>
        {job.state}
      </Badge>
      <Text size="xs" c={isProblem ? 'red.9' : 'dimmed'} maw={320}>
        {progressText(job)}
      </Text>
      <TruncationNotice job={job} compact />
    </Stack>
  );
}

/** The caller's download jobs: asset, format, state with progress, dates, and the file of a Completed job. */
export function DownloadTable({ jobs, savingId, onSave, cancellingId, onCancel }: DownloadTableProps) {
  return (
    <DataTable label="My downloads" columns={columns} minWidth={900}>
      {jobs.map((job) => (
        <Table.Tr key={job.id}>
          <Table.Td maw={280}>
            <Anchor component={Link} to={paths.dataSource(job.asset.uid)} fw={500} size="sm">
              {job.asset.name}
            </Anchor>
            <Text size="xs" c="dimmed" ff="monospace" truncate="end" title={job.fileName}>
              {job.fileName}
            </Text>
          </Table.Td>
          <Table.Td maw={260}>
            <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
              {parametersText(job.parameters)}
            </Text>
          </Table.Td>
          <Table.Td>{formatLabels[job.format]}</Table.Td>
          <Table.Td>
            <StateCell job={job} />
          </Table.Td>
          <Table.Td>{formatDateTime(job.createdAt)}</Table.Td>
          <Table.Td>{job.expiresAt ? formatDateTime(job.expiresAt) : texts.notSet}</Table.Td>
          <Table.Td ta="right">
            {job.state === 'Completed' ? (
              <Button
                size="xs"
                variant="default"
                leftSection={<IconDownload size={14} aria-hidden />}
                aria-label={`Download ${job.fileName}`}
                loading={savingId === job.id}
                onClick={() => onSave(job)}
              >
                Download
              </Button>
            ) : null}
            {job.state === 'Queued' || job.state === 'Running' ? (
              <Button
                size="xs"
                variant="default"
                color="red"
                leftSection={<IconX size={14} aria-hidden />}
                aria-label={`Cancel ${job.fileName}`}
                loading={cancellingId === job.id}
                onClick={() => onCancel(job)}
              >
                Cancel
              </Button>
            ) : null}
          </Table.Td>
        </Table.Tr>
      ))}
    </DataTable>
  );
}
