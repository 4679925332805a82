import { Anchor, Card, Group, SimpleGrid, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import {
  IconDownload,
  IconFolders,
  IconKey,
  IconPlayerPlay,
  IconSettings,
  IconWorld,
  type Icon,
} from '@tabler/icons-react';
import { Link } from 'react-router';
import type { CurrentUser } from '@datalab/contract/api/account';
import { homeCards, type HomeCard } from './home-cards.ts';

const icons: Record<HomeCard['key'], Icon> = {
  collections: IconFolders,
  call: IconPlayerPlay,
  programs: IconKey,
  downloads: IconDownload,
  'digital-lab': IconWorld,
  administration: IconSettings,
};

/** The signed-in user's ways in, each card with links that open for them. */
export function GettingStarted({ user }: { user: CurrentUser }) {
  return (
    <Stack gap="md" component="section" aria-labelledby="getting-started">
      <Title order={2} fz="h3" id="getting-started">
        What you can do
      </Title>
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="lg">
        {homeCards(user).map((card) => {
          const CardIcon = icons[card.key];
          return (
            <Card key={card.key} withBorder padding="lg" radius="md">
              <Stack gap="sm" h="100%">
                <ThemeIcon variant="light" size={40} radius="md">
                  <CardIcon size={22} />
                </ThemeIcon>
                <Title order={3} fz="h4">
                  {card.title}
                </Title>
                <Text size="sm" c="dimmed" style={{ flexGrow: 1 }}>
                  {card.text}
                </Text>
                <Group gap="md">
                  {card.links.map((link) => (
                    <Anchor key={link.to} component={Link} to={link.to} size="sm" fw={600}>
                      {link.label}
                    </Anchor>
                  ))}
                </Group>
              </Stack>
            </Card>
          );
        })}
      </SimpleGrid>
    </Stack>
  );
}
