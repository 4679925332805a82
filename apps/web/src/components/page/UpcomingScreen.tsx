import type { ReactNode } from 'react';
import { Badge, Button, Code, EmptyState, Group, Paper, Stack, Text } from '@mantine/core';
import { IconHourglassEmpty } from '@tabler/icons-react';
import { Link } from 'react-router';
import { PageFrame } from './PageFrame.tsx';

// The frame of a screen whose content arrives with a later release: its title, what it is
// for, the route's own parameters, and an empty state that says so plainly — no invented data.

export interface UpcomingScreenProps {
  title: string;
  description: ReactNode;
  /** What the finished screen will let the user do, shown in the empty state. */
  purpose: string;
  /** Route parameters the screen was opened with, e.g. { Collection: uid }. */
  context?: Record<string, string | undefined>;
  back?: { to: string; label: string };
}

export function UpcomingScreen({ title, description, purpose, context = {}, back }: UpcomingScreenProps) {
  const shown = Object.entries(context).filter((entry): entry is [string, string] => Boolean(entry[1]));
  return (
    <PageFrame title={title} description={description}>
      <Stack gap="lg">
        {shown.length > 0 ? (
          <Group gap="lg">
            {shown.map(([label, value]) => (
              <Group key={label} gap={6}>
                <Text size="sm" c="dimmed">
                  {label}
                </Text>
                <Code>{value}</Code>
              </Group>
            ))}
          </Group>
        ) : null}
        <Paper withBorder radius="md" py={48} px="lg">
          <EmptyState
            icon={<IconHourglassEmpty size={28} stroke={1.5} />}
            variant="light"
            title="Not available yet"
            description={
              <>
                {purpose} This screen is part of an upcoming release of Data Lab, so there is nothing to show here yet.
              </>
            }
          >
            <EmptyState.Actions>
              <Badge variant="light" color="gray">
                Coming soon
              </Badge>
              {back ? (
                <Button component={Link} to={back.to} variant="default" size="xs">
                  {back.label}
                </Button>
              ) : null}
            </EmptyState.Actions>
          </EmptyState>
        </Paper>
      </Stack>
    </PageFrame>
  );
}
