import { Card, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** One titled part of the editor (and of the playground), named for assistive technology. */
export function EditorSection({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-label={title}>
      <Title order={2} fz="h4" mb="sm">
        {title}
      </Title>
      {children}
    </Card>
  );
}
