import { Button, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconDatabaseOff, IconPlayerPlay } from '@tabler/icons-react';
import { Link } from 'react-router';
import { paths } from '@datalab/contract/paths';
import { InlineError } from '../../../components/error/InlineError.tsx';
import { EmptyPanel } from '../../../components/page/EmptyPanel.tsx';
import { PageLoader } from '../../../components/page/PageLoader.tsx';
import { useDataSources } from '../../../features/data-sources/api/get-data-sources.ts';
import { plural } from '../../../lib/format.ts';

const SHOWN = 100;

/** The data assets shared with the partner, each with a way to call it in the Digital Lab (and nowhere else). */
export function SharedAssets() {
  const assets = useDataSources({ search: '', page: 1, pageSize: SHOWN });
  if (assets.isPending) return <PageLoader label="Loading the data shared with you" />;
  if (assets.isError) return <InlineError error={assets.error} />;
  if (assets.data.items.length === 0) {
    return (
      <EmptyPanel
        icon={<IconDatabaseOff size={28} stroke={1.5} />}
        title="Nothing has been shared with you yet"
        description="When a collection is shared with you, its data assets appear here. Ask your contact at the company."
      />
    );
  }
  return (
    <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
      {assets.data.items.map((asset) => (
        <Card key={asset.uid} withBorder radius="md" padding="lg" component="article" aria-label={asset.name}>
          <Stack gap="xs" h="100%">
            <Title order={3} fz="h5">
              {asset.name}
            </Title>
            <Text size="xs" c="dimmed">
              {asset.collection.name} · {plural(asset.parameterCount, 'parameter')}
            </Text>
            <Text size="sm" lineClamp={3} style={{ flex: 1 }}>
              {asset.description || 'No description.'}
            </Text>
            <Group justify="flex-end">
              <Button
                component={Link}
                to={paths.digitalLabAssetCall(asset.uid)}
                size="xs"
                variant="light"
                leftSection={<IconPlayerPlay size={14} />}
                aria-label={`Call ${asset.name}`}
              >
                Call
              </Button>
            </Group>
          </Stack>
        </Card>
      ))}
    </SimpleGrid>
  );
}
