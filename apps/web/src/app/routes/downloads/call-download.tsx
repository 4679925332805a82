import type { ReactNode } from 'react';
import { CallDownload } from '../../../features/downloads/components/CallDownload.tsx';

/**
 * The call screens' Download action (CallWorkbench's `download` slot): the data-sources feature may not import the
 * downloads feature, so the app composes them here.
 */
export function callDownload(dataAssetUid: string) {
  return (parameters: Record<string, unknown>): ReactNode => (
    <CallDownload dataAssetUid={dataAssetUid} parameters={parameters} />
  );
}
