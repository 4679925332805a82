import type { ReactNode } from 'react';
import { Paper, SimpleGrid, Text } from '@mantine/core';
import type { Metrics } from '@datalab/contract/api/reporting';
import { formatBytes } from '../../../lib/format.ts';
import { errorRate, formatCount, formatPercent, formatPercentile } from '../format.ts';

function Kpi({ label, value, hint }: { label: string; value: ReactNode; hint?: ReactNode }) {
  return (
    <Paper withBorder radius="md" p="md">
      <Text component="dt" size="sm" c="dimmed">
        {label}
      </Text>
      <Text component="dd" m={0} fz={24} fw={600} lh={1.3}>
        {value}
      </Text>
      {hint ? (
        <Text component="dd" m={0} size="xs" c="dimmed">
          {hint}
        </Text>
      ) : null}
    </Paper>
  );
}

/** The period's totals as a list of figures, each a term and its value. */
export function UsageKpis({ totals }: { totals: Metrics }) {
  return (
    <SimpleGrid component="dl" cols={{ base: 2, sm: 4 }} spacing="sm" m={0}>
      <Kpi label="Calls" value={formatCount(totals.calls)} />
      <Kpi label="Errors" value={formatCount(totals.errors)} hint={`${formatPercent(errorRate(totals))} of calls`} />
      <Kpi label="Rows" value={formatCount(totals.rows)} />
      <Kpi label="Data sent" value={formatBytes(totals.bytes)} />
      <Kpi
        label="Duration p50 / p95"
        value={`${formatPercentile(totals.p50Ms)} / ${formatPercentile(totals.p95Ms)}`}
        hint="Half of the calls, and 95 in 100, took at most this long"
      />
      <Kpi label="Cache hits" value={formatPercent(totals.cacheHitRatio)} hint="Calls answered from the cache" />
      <Kpi label="Distinct users" value={formatCount(totals.distinctUsers)} />
    </SimpleGrid>
  );
}
