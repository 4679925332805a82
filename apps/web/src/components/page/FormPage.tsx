import { Paper } from '@mantine/core';
import { PageFrame, type PageFrameProps } from './PageFrame.tsx';

/** A screen that is one form (create a collection, a group): a narrow page frame around a bordered panel. */
export function FormPage({ children, ...frame }: Omit<PageFrameProps, 'size'>) {
  return (
    <PageFrame {...frame} size="md">
      <Paper withBorder radius="md" p="lg">
        {children}
      </Paper>
    </PageFrame>
  );
}
