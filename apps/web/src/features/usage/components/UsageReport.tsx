import { lazy, Suspense, useState, type ReactNode } from 'react';
import { Group, Stack, Text, Title } from '@mantine/core';
import type { UserMetricsSummary } from '@datalab/contract/api/reporting';
import { InlineError } from '../../../components/error/InlineError.tsx';
import { PageLoader } from '../../../components/page/PageLoader.tsx';
import { Pager } from '../../../components/search/Pager.tsx';
import { useDataSourceMetricsSummaries } from '../api/get-data-source-metrics-summaries.ts';
import { useUserMetricsSummaries } from '../api/get-user-metrics-summaries.ts';
import { formatCount } from '../format.ts';
import type { UsageScope } from '../keys.ts';
import { presetRules } from '../period.ts';
import { useUsagePeriod } from '../use-usage-period.ts';
import { PeriodPicker } from './PeriodPicker.tsx';
import { TopDataSources } from './TopDataSources.tsx';
import { TopUsers } from './TopUsers.tsx';
import { UsageEmpty } from './UsageEmpty.tsx';
import { UsageKpis } from './UsageKpis.tsx';

const UsageCharts = lazy(() => import('./UsageCharts.tsx').then((module) => ({ default: module.UsageCharts })));

const PAGE_SIZE = 10;

type HeadingOrder = 2 | 3;

export interface UsageReportProps {
  scope: UsageScope;
  /** The level of the report's own headings: 2 on a page or tab of its own, 3 inside a section. */
  headingOrder?: HeadingOrder;
  /** The empty state's words and ways on, for this scope. */
  empty: { description: string; actions?: ReactNode };
  userHref?: (user: NonNullable<UserMetricsSummary['user']>) => string;
}

function Section({
  title,
  order,
  total,
  children,
}: {
  title: string;
  order: HeadingOrder;
  total: number;
  children: ReactNode;
}) {
  return (
    <Stack gap="xs" component="section" aria-label={title}>
      <Group justify="space-between" align="baseline">
        <Title order={order} fz="h4">
          {title}
        </Title>
        <Text size="sm" c="dimmed">
          {formatCount(total)} in the period
        </Text>
      </Group>
      {children}
    </Stack>
  );
}

function Paging({ page, total, onChange }: { page: number; total: number; onChange: (page: number) => void }) {
  const totalPages = Math.ceil(total / PAGE_SIZE);
  return totalPages > 1 ? <Pager page={page} totalPages={totalPages} onPageChange={onChange} /> : null;
}

function TopUsersSection({
  scope,
  range,
  order,
  page,
  onPage,
  userHref,
}: {
  scope: UsageScope;
  range: ReturnType<typeof useUsagePeriod>['range'];
  order: HeadingOrder;
  page: number;
  onPage: (page: number) => void;
  userHref: UsageReportProps['userHref'];
}) {
  const users = useUserMetricsSummaries({ scope, ...range, page, pageSize: PAGE_SIZE });
  let content;
  if (users.isPending) content = <PageLoader label="Loading the top users" />;
  else if (users.isError) content = <InlineError error={users.error} />;
  else content = <TopUsers items={users.data.items} userHref={userHref} />;
  return (
    <Section title="Top users" order={order} total={users.data?.totalCount ?? 0}>
      {content}
      {users.data ? <Paging page={page} total={users.data.totalCount} onChange={onPage} /> : null}
    </Section>
  );
}

/**
 * A scope's usage over the period picked: totals, calls and durations over time, and who and what was called most.
 * Loading → error → empty ("No calls in this period") → data.
 */
export function UsageReport({ scope, headingOrder = 2, empty, userHref }: UsageReportProps) {
  const { period, range, setPeriod } = useUsagePeriod();
  // Another period starts both tables again at their first page.
  const rangeKey = `${range.from}/${range.granularity}`;
  const [pages, setPages] = useState({ rangeKey, sources: 1, users: 1 });
  const current = pages.rangeKey === rangeKey ? pages : { rangeKey, sources: 1, users: 1 };
  const sources = useDataSourceMetricsSummaries({ scope, ...range, page: current.sources, pageSize: PAGE_SIZE });

  let content;
  if (sources.isPending) content = <PageLoader label="Loading usage" />;
  else if (sources.isError) content = <InlineError error={sources.error} />;
  else if (sources.data.totals.calls === 0) content = <UsageEmpty {...empty} />;
  else {
    const { totals, series, channels, granularity, items, totalCount } = sources.data;
    content = (
      <Stack gap="lg">
        <UsageKpis totals={totals} />
        <Suspense fallback={<PageLoader label="Loading the charts" />}>
          <UsageCharts series={series} channels={channels} granularity={granularity} headingOrder={headingOrder} />
        </Suspense>
        {scope.kind === 'dataAsset' ? null : (
          <Section title="Top data sources" order={headingOrder} total={totalCount}>
            <TopDataSources items={items} showCollection={scope.kind === 'all'} />
            <Paging
              page={current.sources}
              total={totalCount}
              onChange={(page) => setPages({ ...current, sources: page })}
            />
          </Section>
        )}
        <TopUsersSection
          scope={scope}
          range={range}
          order={headingOrder}
          page={current.users}
          onPage={(page) => setPages({ ...current, users: page })}
          userHref={userHref}
        />
      </Stack>
    );
  }

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end">
        <PeriodPicker value={period} onChange={setPeriod} />
        <Text size="sm" c="dimmed" aria-live="polite">
          {presetRules[period.preset].label}, by {range.granularity} (UTC)
        </Text>
      </Group>
      {content}
    </Stack>
  );
}
