import type { DownloadFormat } from '@datalab/contract/api/downloads';
import { useDownloadJob } from '../model/use-download-job.ts';
import { DownloadMenu } from './DownloadMenu.tsx';
import { DownloadProgress } from './DownloadProgress.tsx';

export interface CallDownloadProps {
  dataAssetUid: string;
  /** The parameter values as the call sends them. */
  parameters: Record<string, unknown>;
}

/** The call screen's download: the format menu, then the job's progress below the form's buttons. */
export function CallDownload({ dataAssetUid, parameters }: CallDownloadProps) {
  const { watch, isBusy, begin, saveAgain } = useDownloadJob();
  const handleDownload = (format: DownloadFormat) => void begin({ dataAssetUid, parameters, format });
  return (
    <>
      <DownloadMenu isBusy={isBusy} onDownload={handleDownload} />
      <DownloadProgress watch={watch} onSaveAgain={saveAgain} />
    </>
  );
}
