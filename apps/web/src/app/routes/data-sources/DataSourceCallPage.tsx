import { Button } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { Link, useParams } from 'react-router';
import { paths } from '@datalab/contract/paths';
import { PageFrame } from '../../../components/page/PageFrame.tsx';
import { CallWorkbench } from '../../../features/data-sources/components/CallWorkbench.tsx';
import { callDownload } from '../downloads/call-download.tsx';
import { DataSourceGate } from './DataSourceGate.tsx';

/** /data-source/{uid}/call: fill in the parameters, call, read the result in the grid, download it. */
export function DataSourceCallPage() {
  const { uid = '' } = useParams();
  return (
    <DataSourceGate uid={uid}>
      {(asset) => (
        <PageFrame
          title={`Call ${asset.name}`}
          description={asset.description || undefined}
          actions={
            <Button
              component={Link}
              to={paths.dataSource(asset.uid)}
              variant="default"
              leftSection={<IconArrowLeft size={16} />}
            >
              About this asset
            </Button>
          }
        >
          <CallWorkbench key={asset.uid} asset={asset} download={callDownload(asset.uid)} />
        </PageFrame>
      )}
    </DataSourceGate>
  );
}
