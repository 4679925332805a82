import { Alert, Badge, Button, Group, Text } from '@mantine/core';
import { IconDownload, IconInfoCircle } from '@tabler/icons-react';
import { plural } from '../../../lib/format.ts';
import { dataFormats, type CallResult, type DataFormat } from '../../../lib/data-api.ts';

const formatLabels: Record<DataFormat, string> = { csv: 'CSV', json: 'JSON', ndjson: 'NDJSON', xlsx: 'XLSX' };

interface ResultSummaryProps {
  result: CallResult;
  rowCap?: number;
  downloading: DataFormat | null;
  onDownload: (format: DataFormat) => void;
}

/** Row count, duration, the truncated and cached notices, and the downloads of the whole result. */
export function ResultSummary({ result, rowCap, downloading, onDownload }: ResultSummaryProps) {
  return (
    <>
      <Group justify="space-between" gap="sm">
        <Group gap="sm">
          <Text fw={600}>{plural(result.rows.length, 'row')}</Text>
          <Text size="sm" c="dimmed">
            in {result.durationMs.toLocaleString()} ms
          </Text>
          {result.cached ? (
            <Badge variant="light" color="teal">
              From the cache
            </Badge>
          ) : null}
        </Group>
        <Group gap="xs" role="group" aria-label="Download the whole result">
          {dataFormats.map((format) => (
            <Button
              key={format}
              size="xs"
              variant="default"
              leftSection={<IconDownload size={14} />}
              loading={downloading === format}
              disabled={downloading !== null && downloading !== format}
              onClick={() => onDownload(format)}
            >
              {formatLabels[format]}
            </Button>
          ))}
        </Group>
      </Group>
      {result.truncated ? (
        <Alert color="blue" icon={<IconInfoCircle size={18} />} title="The result was cut at the row cap">
          Only the first {(rowCap ?? result.rows.length).toLocaleString()} rows are shown here. Download a file for the
          whole result.
        </Alert>
      ) : null}
    </>
  );
}
