import { Button, Card, Title } from '@mantine/core';
import { IconPlayerPlay } from '@tabler/icons-react';
import { Link } from 'react-router';
import { paths } from '@datalab/contract/paths';
import { UsageReport } from './UsageReport.tsx';

/** One data asset's usage, a section of its page (its collection's Editors and Owners; administrators). */
export function DataSourceUsage({ uid }: { uid: string }) {
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-label="Usage">
      <Title order={2} fz="h4" mb="sm">
        Usage
      </Title>
      <UsageReport
        scope={{ kind: 'dataAsset', uid }}
        headingOrder={3}
        empty={{
          description: 'Nobody called this data asset in this period.',
          actions: (
            <Button
              component={Link}
              to={paths.dataSourceCall(uid)}
              variant="light"
              leftSection={<IconPlayerPlay size={16} />}
            >
              Call it
            </Button>
          ),
        }}
      />
    </Card>
  );
}
