import type { ReactNode } from 'react';
import { Anchor, Badge, Card, SimpleGrid, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconFolders, IconKey, IconPlayerPlay } from '@tabler/icons-react';
import { Link } from 'react-router';
import { paths } from '@datalab/contract/paths';

interface Step {
  icon: ReactNode;
  title: string;
  text: string;
  /** Where to do it, for what works today; screens still to come say when instead of linking to a placeholder. */
  link?: { to: string; label: string };
  upcoming?: string;
}

const steps: Step[] = [
  {
    icon: <IconFolders size={22} />,
    title: '1. Explore collections',
    text: 'A collection groups related data assets with the connections they run on and the people allowed to use them. Open one to see its assets and your role in it.',
    link: { to: paths.collections, label: 'Go to collections' },
  },
  {
    icon: <IconPlayerPlay size={22} />,
    title: '2. Call a data asset',
    text: 'Pick an asset, fill in its parameters and run it. Results appear in a grid you can sort and page, and large results can be downloaded as CSV, JSON, Excel or Parquet.',
    upcoming: 'Coming with data sources',
  },
  {
    icon: <IconKey size={22} />,
    title: '3. Connect your programs',
    text: 'Create a personal access token, narrow it to the collections it needs, and call assets from curl, Python, R or Power BI. Revoke it when you are done.',
    upcoming: 'Coming with access tokens',
  },
];

export function GettingStarted() {
  return (
    <Stack gap="md" component="section" aria-labelledby="getting-started">
      <Title order={2} fz="h3" id="getting-started">
        Where to start
      </Title>
      <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="lg">
        {steps.map((step) => (
          <Card key={step.title} withBorder padding="lg" radius="md">
            <Stack gap="sm" h="100%">
              <ThemeIcon variant="light" size={40} radius="md">
                {step.icon}
              </ThemeIcon>
              <Title order={3} fz="h4">
                {step.title}
              </Title>
              <Text size="sm" c="dimmed" style={{ flexGrow: 1 }}>
                {step.text}
              </Text>
              {step.link ? (
                <Anchor component={Link} to={step.link.to} size="sm" fw={600}>
                  {step.link.label}
                </Anchor>
              ) : (
                <Badge variant="light" color="gray" tt="none" style={{ alignSelf: 'flex-start' }}>
                  {step.upcoming}
                </Badge>
              )}
            </Stack>
          </Card>
        ))}
      </SimpleGrid>
    </Stack>
  );
}
