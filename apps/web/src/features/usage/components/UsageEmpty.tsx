import type { ReactNode } from 'react';
import { IconChartBar } from '@tabler/icons-react';
import { EmptyPanel } from '../../../components/page/EmptyPanel.tsx';

export interface UsageEmptyProps {
  /** What brings calls here, for this scope. */
  description: string;
  actions?: ReactNode;
}

/** No calls in the period: say so, say what would put some here, and offer the way there. */
export function UsageEmpty({ description, actions }: UsageEmptyProps) {
  return (
    <EmptyPanel
      icon={<IconChartBar size={28} stroke={1.5} aria-hidden />}
      title="No calls in this period"
      description={`${description} Calls are counted here within about half a minute of being made; a longer period may show older ones.`}
      actions={actions}
    />
  );
}
