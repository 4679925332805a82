import { Button } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { Link, useParams } from 'react-router';
import { paths } from '@datalab/contract/paths';
import { PageFrame } from '../../../components/page/PageFrame.tsx';
import { CallWorkbench } from '../../../features/data-sources/components/CallWorkbench.tsx';
import { callDownload } from '../downloads/call-download.tsx';
import { ExchangeDetails } from '../../../features/data-sources/components/ExchangeDetails.tsx';
import { DataSourceGate } from './DataSourceGate.tsx';

/** /data-source/{uid}/call-dev-mode: the call screen plus the exact request, the SQL, timings and the raw reply. */
export function DataSourceCallDevModePage() {
  const { uid = '' } = useParams();
  return (
    <DataSourceGate uid={uid}>
      {(asset) => (
        <PageFrame
          title={`Call ${asset.name} (developer mode)`}
          description="The call as on the call screen, with everything about the exchange below the result."
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
          <CallWorkbench
            key={asset.uid}
            asset={asset}
            withExchanges={asset.kind === 'webapi'}
            download={callDownload(asset.uid)}
            details={(outcome, sent) => <ExchangeDetails asset={asset} outcome={outcome} sent={sent} />}
          />
        </PageFrame>
      )}
    </DataSourceGate>
  );
}
