import type { ReactNode } from 'react';
import { Alert, Badge, Button, Group, Loader, Paper, Progress, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconAlertTriangle, IconCircleCheck, IconClockHour4, IconDownload } from '@tabler/icons-react';
import { DOWNLOAD_POLL_INTERVAL_MS, type DownloadJob } from '@datalab/contract/api/downloads';
import { formatLabels, progressText, stateColors } from '../format.ts';
import type { DownloadWatch } from '../model/use-download-job.ts';
import { MyDownloadsLink } from './MyDownloadsLink.tsx';
import { TruncationNotice } from './TruncationNotice.tsx';

export interface DownloadProgressProps {
  watch: DownloadWatch;
  onSaveAgain: (job: DownloadJob) => void;
}

function Heading({ job }: { job: DownloadJob }) {
  return (
    <Group gap="xs" wrap="nowrap">
      <Badge variant="light" color={stateColors[job.state]}>
        {job.state}
      </Badge>
      <Text size="sm" fw={600} truncate="end">
        {job.fileName}
      </Text>
    </Group>
  );
}

function Body({ watch, onSaveAgain }: DownloadProgressProps): ReactNode {
  const seconds = DOWNLOAD_POLL_INTERVAL_MS / 1000;
  switch (watch.phase) {
    case 'idle':
      return null;
    case 'starting':
      return (
        <Group gap="xs">
          <Loader size="xs" aria-hidden />
          <Text size="sm">Starting the {formatLabels[watch.format]} download…</Text>
        </Group>
      );
    case 'watching':
      return (
        <>
          <Heading job={watch.job} />
          <Progress value={100} striped animated aria-label="Download in progress" />
          <Text size="sm">{progressText(watch.job)}</Text>
          <Text size="xs" c="dimmed">
            Checked every {seconds} seconds. You can leave this page: the download goes on, and <MyDownloadsLink />{' '}
            keeps the file.
          </Text>
        </>
      );
    case 'fetching':
      return (
        <>
          <Heading job={watch.job} />
          <Group gap="xs">
            <Loader size="xs" aria-hidden />
            <Text size="sm">{progressText(watch.job)}. Fetching the file…</Text>
          </Group>
          <TruncationNotice job={watch.job} />
        </>
      );
    case 'saved':
      return (
        <>
          <Heading job={watch.job} />
          <Group gap="xs" wrap="nowrap">
            <ThemeIcon variant="light" color="teal" size="sm" radius="xl" aria-hidden>
              <IconCircleCheck size={14} />
            </ThemeIcon>
            <Text size="sm">{progressText(watch.job)}. The file was handed to your browser.</Text>
          </Group>
          <TruncationNotice job={watch.job} />
          <Group gap="sm">
            <Button
              size="xs"
              variant="default"
              leftSection={<IconDownload size={14} aria-hidden />}
              onClick={() => onSaveAgain(watch.job)}
            >
              Save the file again
            </Button>
          </Group>
        </>
      );
    case 'fetch-failed':
      return (
        <>
          <Heading job={watch.job} />
          <FailureAlert title="The file could not be fetched">{watch.message}</FailureAlert>
          <TruncationNotice job={watch.job} />
          <Group gap="sm">
            <Button size="xs" variant="default" onClick={() => onSaveAgain(watch.job)}>
              Try again
            </Button>
            <Text size="sm">
              or fetch it later from <MyDownloadsLink />.
            </Text>
          </Group>
        </>
      );
    case 'failed':
      return (
        <>
          <Heading job={watch.job} />
          <FailureAlert title={watch.job.state === 'Expired' ? 'The file has expired' : 'The download failed'}>
            {progressText(watch.job)}
          </FailureAlert>
        </>
      );
    case 'continuing':
      return (
        <>
          <Heading job={watch.job} />
          <Group gap="xs" wrap="nowrap" align="flex-start">
            <IconClockHour4 size={18} aria-hidden />
            <Text size="sm">
              {progressText(watch.job)}. The download continues on the server and takes longer than this page waits.
              Find it in <MyDownloadsLink /> to fetch the file when it is ready.
            </Text>
          </Group>
        </>
      );
    case 'lost':
      return (
        <>
          <Heading job={watch.job} />
          <FailureAlert title="The download's progress could not be read">{watch.message}</FailureAlert>
          <Text size="sm">
            It may still be running: look for it in <MyDownloadsLink />.
          </Text>
        </>
      );
  }
}

/** The progress of the call screen's download: state, rows so far, the file handed over, or where to find it. */
export function DownloadProgress({ watch, onSaveAgain }: DownloadProgressProps) {
  if (watch.phase === 'idle') return null;
  return (
    <Paper withBorder radius="md" p="md" w="100%" component="section" aria-label="Download">
      <Stack gap="xs" role="status">
        <Body watch={watch} onSaveAgain={onSaveAgain} />
      </Stack>
    </Paper>
  );
}

/** A failure of the download as an alert: red, with the warning icon. */
function FailureAlert({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />} title={title}>
      {children}
    </Alert>
  );
}
