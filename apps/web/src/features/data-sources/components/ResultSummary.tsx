import { Alert, Badge, Group, Text } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import { plural } from '../../../lib/format.ts';
import type { CallResult } from '../../../lib/data-api.ts';

interface ResultSummaryProps {
  result: CallResult;
  rowCap?: number;
}

/** Row count, duration, and the truncated and cached notices (the whole result is a download: see CallWorkbench). */
export function ResultSummary({ result, rowCap }: ResultSummaryProps) {
  return (
    <>
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
      {result.truncated ? (
        <Alert color="blue" icon={<IconInfoCircle size={18} />} title="The result was cut at the row cap">
          Only the first {(rowCap ?? result.rows.length).toLocaleString()} rows are shown here. Use Download for a file
          of the whole result.
        </Alert>
      ) : null}
    </>
  );
}
