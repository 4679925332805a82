import type { ReactNode } from 'react';
import { Container, Group, Stack, Text, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { PRODUCT_NAME } from '@datalab/contract/texts';

export interface PageFrameProps {
  title: string;
  /** What the screen is for, in a sentence or two. */
  description?: ReactNode;
  /** Buttons shown beside the title. */
  actions?: ReactNode;
  size?: 'md' | 'lg' | 'xl';
  children?: ReactNode;
}

export function PageFrame({ title, description, actions, size = 'xl', children }: PageFrameProps) {
  useDocumentTitle(`${title} · ${PRODUCT_NAME}`);
  return (
    <Container size={size} py="xl">
      <Group justify="space-between" align="flex-start" mb="xl" wrap="nowrap">
        <Stack gap={6}>
          <Title order={1} fz="h2">
            {title}
          </Title>
          {description ? (
            <Text c="dimmed" maw={760}>
              {description}
            </Text>
          ) : null}
        </Stack>
        {actions ? <Group gap="sm">{actions}</Group> : null}
      </Group>
      {children}
    </Container>
  );
}
