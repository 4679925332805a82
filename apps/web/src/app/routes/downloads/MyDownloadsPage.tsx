import { Button, Stack, Text } from '@mantine/core';
import { IconFileDownload, IconRefresh } from '@tabler/icons-react';
import { Link } from 'react-router';
import { paths } from '@datalab/contract/paths';
import { InlineError } from '../../../components/error/InlineError.tsx';
import { EmptyPanel } from '../../../components/page/EmptyPanel.tsx';
import { PageFrame } from '../../../components/page/PageFrame.tsx';
import { PageLoader } from '../../../components/page/PageLoader.tsx';
import { Pager } from '../../../components/search/Pager.tsx';
import { useFilterState } from '../../../components/search/use-filter-state.ts';
import { useSaveDownloadFile } from '../../../features/downloads/api/fetch-download-file.ts';
import { useCancelDownload } from '../../../features/downloads/api/cancel-download.ts';
import { useMyDownloads } from '../../../features/downloads/api/get-my-downloads.ts';
import { DownloadTable } from '../../../features/downloads/components/DownloadTable.tsx';
import { isSettled } from '../../../features/downloads/format.ts';
import { plural } from '../../../lib/format.ts';

const PAGE_SIZE = 20;

/** /downloads: the caller's download jobs, newest first; fetch a Completed job's file again until it expires. */
export function MyDownloadsPage() {
  const { page, setPage } = useFilterState();
  const downloads = useMyDownloads({ page, pageSize: PAGE_SIZE });
  const save = useSaveDownloadFile();
  const cancel = useCancelDownload();

  let content;
  if (downloads.isPending) content = <PageLoader label="Loading your downloads" />;
  else if (downloads.isError) content = <InlineError error={downloads.error} />;
  else if (downloads.data.totalCount === 0) {
    content = (
      <EmptyPanel
        icon={<IconFileDownload size={28} stroke={1.5} />}
        title="No downloads yet"
        description={
          <>
            To start one, open a data asset's call screen, fill in the parameters and choose a format under Download.
            The file of the whole result is prepared here and kept for a while.
          </>
        }
        actions={
          <Button component={Link} to={paths.collections} variant="light">
            Find a data asset in Collections
          </Button>
        }
      />
    );
  } else {
    const { items, totalCount } = downloads.data;
    const active = items.filter((job) => !isSettled(job)).length;
    const totalPages = Math.ceil(totalCount / PAGE_SIZE);
    content = (
      <Stack gap="sm">
        <Text size="sm" c="dimmed" aria-live="polite">
          {plural(totalCount, 'download')}
          {active > 0 ? ` · ${active} in progress, refreshing every few seconds` : ''}
        </Text>
        <DownloadTable
          jobs={items}
          savingId={save.isPending ? (save.variables?.id ?? null) : null}
          onSave={(job) => save.mutate(job)}
          cancellingId={cancel.isPending ? (cancel.variables?.id ?? null) : null}
          onCancel={(job) => cancel.mutate(job)}
        />
        {totalPages > 1 ? <Pager page={page} totalPages={totalPages} onPageChange={setPage} /> : null}
      </Stack>
    );
  }

  return (
    <PageFrame
      title="My downloads"
      description="Files of whole results you asked for on the call screens of data assets, newest first. Each file is kept until the date under Expires: fetch it again here until then."

      actions={
        <Button
          variant="default"
          leftSection={<IconRefresh size={16} aria-hidden />}
          onClick={() => void downloads.refetch()}
        >
          Refresh
        </Button>
      }
    >
      {content}
    </PageFrame>
  );
}
