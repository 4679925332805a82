import type { ReactNode } from 'react';
import { EmptyState, Paper } from '@mantine/core';

export interface EmptyPanelProps {
  icon: ReactNode;
  title: string;
  description: ReactNode;
  /** What to do next: a button or a link. */
  actions?: ReactNode;
}

/** The empty state of a list or tab: what is missing and what to do next. */
export function EmptyPanel({ icon, title, description, actions }: EmptyPanelProps) {
  return (
    <Paper withBorder radius="md" py={40} px="lg">
      <EmptyState icon={icon} variant="light" title={title} description={description}>
        {actions ? <EmptyState.Actions>{actions}</EmptyState.Actions> : null}
      </EmptyState>
    </Paper>
  );
}
