import { Table } from '@mantine/core';
import type { Metrics } from '@datalab/contract/api/reporting';
import { formatBytes } from '../../../lib/format.ts';
import { errorRate, formatCount, formatPercent, formatPercentile } from '../format.ts';

/** The figures' column headers, shared by the top data sources and top users tables. */
export function MetricHeaders() {
  return (
    <>
      <Table.Th scope="col" ta="right">
        Calls
      </Table.Th>
      <Table.Th scope="col" ta="right">
        Errors
      </Table.Th>
      <Table.Th scope="col" ta="right">
        Rows
      </Table.Th>
      <Table.Th scope="col" ta="right">
        Data sent
      </Table.Th>
      <Table.Th scope="col" ta="right">
        p50 / p95
      </Table.Th>
      <Table.Th scope="col" ta="right">
        Cache hits
      </Table.Th>
    </>
  );
}

export function MetricCells({ metrics }: { metrics: Metrics }) {
  return (
    <>
      <Table.Td ta="right">{formatCount(metrics.calls)}</Table.Td>
      <Table.Td ta="right">
        {formatCount(metrics.errors)} ({formatPercent(errorRate(metrics))})
      </Table.Td>
      <Table.Td ta="right">{formatCount(metrics.rows)}</Table.Td>
      <Table.Td ta="right">{formatBytes(metrics.bytes)}</Table.Td>
      <Table.Td ta="right">
        {formatPercentile(metrics.p50Ms)} / {formatPercentile(metrics.p95Ms)}
      </Table.Td>
      <Table.Td ta="right">{formatPercent(metrics.cacheHitRatio)}</Table.Td>
    </>
  );
}
