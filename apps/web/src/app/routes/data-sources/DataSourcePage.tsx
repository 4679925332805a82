import { Button, Stack } from '@mantine/core';
import { IconApi, IconCode, IconPencil, IconPlayerPlay } from '@tabler/icons-react';
import { Link, useNavigate, useParams } from 'react-router';
import { paths } from '@datalab/contract/paths';
import { PageFrame } from '../../../components/page/PageFrame.tsx';
import { useCurrentUser } from '../../../features/account/api/get-current-user.ts';
import { DeleteAssetButton } from '../../../features/data-sources/components/DeleteAssetButton.tsx';
import { DataSourceOverview } from '../../../features/data-sources/components/DataSourceOverview.tsx';
import { canSeeUsage } from '../../../features/usage/access.ts';
import { DataSourceUsage } from '../../../features/usage/components/DataSourceUsage.tsx';
import { useDeveloperMode } from '../../../lib/developer-mode.ts';
import { DataSourceGate } from './DataSourceGate.tsx';

/** /data-source/{uid}: one asset, how to call it from the portal or from a program. */
export function DataSourcePage() {
  const { uid = '' } = useParams();
  const navigate = useNavigate();
  const isDeveloperMode = useDeveloperMode();
  const isAdministrator = useCurrentUser().data?.permissions.canManageUsers ?? false;
  return (
    <DataSourceGate uid={uid}>
      {(asset) => (
        <PageFrame
          title={asset.name}
          description={asset.description || undefined}
          actions={
            <>
              {asset.can.edit ? (
                <Button
                  component={Link}
                  to={paths.collectionEditAsset(asset.collection.uid, asset.uid)}
                  variant="default"
                  leftSection={<IconPencil size={16} />}
                >
                  Edit
                </Button>
              ) : null}
              {asset.can.edit ? (
                <DeleteAssetButton
                  asset={asset}
                  onDeleted={() => void navigate(paths.collection(asset.collection.uid, 'data-assets'))}
                />
              ) : null}
              <Button
                component={Link}
                to={`${paths.callingApi}?asset=${encodeURIComponent(asset.uid)}`}
                variant="default"
                leftSection={<IconApi size={16} />}
              >
                Calling API
              </Button>
              {isDeveloperMode ? (
                <Button
                  component={Link}
                  to={paths.dataSourceCallDevMode(asset.uid)}
                  variant="light"
                  leftSection={<IconCode size={16} />}
                >
                  Call in developer mode
                </Button>
              ) : null}
              <Button component={Link} to={paths.dataSourceCall(asset.uid)} leftSection={<IconPlayerPlay size={16} />}>
                Call
              </Button>
            </>
          }
        >
          <Stack gap="lg">
            <DataSourceOverview asset={asset} />
            {canSeeUsage({ canEditAssets: asset.can.edit, isAdministrator }) ? (
              <DataSourceUsage uid={asset.uid} />
            ) : null}
          </Stack>
        </PageFrame>
      )}
    </DataSourceGate>
  );
}
