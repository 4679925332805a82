import { Alert } from '@mantine/core';
import { IconScissors } from '@tabler/icons-react';
import type { DownloadJob } from '@datalab/contract/api/downloads';
import { TRUNCATED_TITLE, truncationText } from '../format.ts';

export interface TruncationNoticeProps {
  job: DownloadJob;
  /** The table's compact form: one line, no title. */
  compact?: boolean;
}

/** Says that a Completed job's file stopped at the export limit; nothing for a job that holds the whole result. */
export function TruncationNotice({ job, compact = false }: TruncationNoticeProps) {
  const text = truncationText(job, compact);
  if (text === null) return null;
  return (
    <Alert
      color="yellow"
      variant="light"
      p={compact ? 'xs' : undefined}
      icon={<IconScissors size={compact ? 14 : 18} aria-hidden />}
      title={compact ? undefined : TRUNCATED_TITLE}
      // The light yellow's own title colour is under AA contrast on its background: the body's text colour is not.
      styles={{ title: { color: 'var(--mantine-color-text)' } }}
      // A standing remark about the file, not an event: a note, which screen readers do not announce as it appears.
      role="note"
      aria-label={TRUNCATED_TITLE}
      maw={compact ? 320 : undefined}
    >
      {text}
    </Alert>
  );
}
