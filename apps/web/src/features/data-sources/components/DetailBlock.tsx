import { Card, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** One block of the developer-mode details: a titled section that screen readers list as a region. */
export function DetailBlock({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Card withBorder radius="md" padding="md" component="section" aria-label={title}>
      <Title order={2} fz="h5" mb="xs">
        {title}
      </Title>
      {children}
    </Card>
  );
}
