import { Anchor, Card, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconDatabase } from '@tabler/icons-react';
import { Link } from 'react-router';
import type { CollectionSummary } from '@datalab/contract/api/collections';
import { paths } from '@datalab/contract/paths';
import { RoleBadge } from '../../../components/roles/RoleBadge.tsx';
import { plural } from '../../../lib/format.ts';

/** One card per collection: its name (a link), description, the caller's role and its size. */
export function CollectionCards({ collections }: { collections: CollectionSummary[] }) {
  return (
    <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md" component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
      {collections.map((collection) => (
        <Card key={collection.uid} component="li" withBorder radius="md" padding="lg">
          <Stack gap="sm" h="100%" justify="space-between">
            <Stack gap={6}>
              <Anchor component={Link} to={paths.collection(collection.uid)} fw={600} size="lg" lineClamp={1}>
                {collection.name}
              </Anchor>
              <Text size="sm" c={collection.description ? undefined : 'dimmed'} lineClamp={2}>
                {collection.description || 'No description'}
              </Text>
            </Stack>
            <Group justify="space-between" gap="xs">
              <Group gap={6} aria-label="Your role">
                <Text size="xs" c="dimmed">
                  Your role
                </Text>
                <RoleBadge role={collection.myRole} size="sm" />
              </Group>
              <Group gap={4}>
                <IconDatabase size={14} stroke={1.5} aria-hidden />
                <Text size="sm" c="dimmed">
                  {plural(collection.assetCount, 'data asset')}
                </Text>
              </Group>
            </Group>
          </Stack>
        </Card>
      ))}
    </SimpleGrid>
  );
}
