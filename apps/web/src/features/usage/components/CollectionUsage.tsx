import { Button } from '@mantine/core';
import { IconDatabase } from '@tabler/icons-react';
import { Link } from 'react-router';
import type { CollectionDetail } from '@datalab/contract/api/collections';
import { paths } from '@datalab/contract/paths';
import { UsageReport } from './UsageReport.tsx';

/** A collection's Usage tab: calls to its data assets over a period (its Editors and Owners; administrators). */
export function CollectionUsage({ collection }: { collection: CollectionDetail }) {
  return (
    <UsageReport
      scope={{ kind: 'collection', uid: collection.uid }}
      empty={{
        description: `None of the data assets of ${collection.name} was called in this period.`,
        actions: (
          <Button
            component={Link}
            to={paths.collection(collection.uid, 'data-assets')}
            variant="light"
            leftSection={<IconDatabase size={16} />}
          >
            Its data assets
          </Button>
        ),
      }}
    />
  );
}
