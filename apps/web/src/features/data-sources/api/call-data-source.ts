import { useMutation } from '@tanstack/react-query';
import { callDataAsset, downloadDataAsset, type CallOptions, type DataFormat } from '../../../lib/data-api.ts';

/** Runs an asset through the calling layer for its JSON result (with a Web API asset's exchanges when asked). */
export function useCallDataSource(uid: string, options: CallOptions = {}) {
  return useMutation({
    mutationFn: (values: Record<string, unknown>) => callDataAsset(uid, values, undefined, options),
  });
}

/** Downloads the whole result in one format and hands the file to the browser (a Blob link, no token in a URL). */
export function useDownloadDataSource(uid: string) {
  return useMutation({
    mutationFn: async ({ values, format }: { values: Record<string, unknown>; format: DataFormat }) => {
      const { blob, fileName } = await downloadDataAsset(uid, values, format);
      saveBlob(blob, fileName);
      return fileName;
    },
  });
}

function saveBlob(blob: Blob, fileName: string) {
  const href = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = href;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  // The download has started from the link; the object URL can go once the click has been handled.
  setTimeout(() => URL.revokeObjectURL(href), 0);
}
