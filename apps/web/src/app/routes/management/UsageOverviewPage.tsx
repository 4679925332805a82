import { Button } from '@mantine/core';
import { IconDatabase } from '@tabler/icons-react';
import { Link } from 'react-router';
import { paths } from '@datalab/contract/paths';
import { PageFrame } from '../../../components/page/PageFrame.tsx';
import { UsageReport } from '../../../features/usage/components/UsageReport.tsx';

const userSearch = (user: { name: string; username: string | null }) =>
  `${paths.userManagement}?${new URLSearchParams({ search: user.username ?? user.name })}`;

/** /management/usage: every call of every data source over a period, per data source and per user (canManageUsers). */
export function UsageOverviewPage() {
  return (
    <PageFrame
      title="Usage"
      description="Calls from the portal, from programs with tokens and through downloads: how many, how fast, how many failed, and which data sources and users account for them."
    >
      <UsageReport
        scope={{ kind: 'all' }}
        userHref={userSearch}
        empty={{
          description: 'No data asset was called in this period.',
          actions: (
            <Button component={Link} to={paths.dataSources} variant="light" leftSection={<IconDatabase size={16} />}>
              Browse data assets
            </Button>
          ),
        }}
      />
    </PageFrame>
  );
}
