import type { ReactNode } from 'react';
import type { DataSourceDetail } from '@datalab/contract/api/data-sources';
import { paths } from '@datalab/contract/paths';
import { InlineError } from '../../../components/error/InlineError.tsx';
import { NotFoundState } from '../../../components/page/NotFoundState.tsx';
import { PageLoader } from '../../../components/page/PageLoader.tsx';
import { useDataSource } from '../../../features/data-sources/api/get-data-source.ts';
import { isNotFound } from '../../../lib/api-error.ts';

/** One asset's screens: loading → not found or error → the screen with the asset. */
export function DataSourceGate({ uid, children }: { uid: string; children: (asset: DataSourceDetail) => ReactNode }) {
  const asset = useDataSource(uid);
  if (asset.isPending) return <PageLoader label="Loading the data asset" />;
  if (asset.isError) {
    if (isNotFound(asset.error)) {
      return <NotFoundState what="This data asset" back={{ to: paths.dataSources, label: 'All data assets' }} />;
    }
    return <InlineError error={asset.error} />;
  }
  return children(asset.data);
}
