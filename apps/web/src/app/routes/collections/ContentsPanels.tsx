import { Button, Group, Stack } from '@mantine/core';
import { IconDatabase, IconPlugConnected, IconPlus } from '@tabler/icons-react';
import { Link } from 'react-router';
import type { CollectionDetail } from '@datalab/contract/api/collections';
import { paths } from '@datalab/contract/paths';
import { InlineError } from '../../../components/error/InlineError.tsx';
import { EmptyPanel } from '../../../components/page/EmptyPanel.tsx';
import { PageLoader } from '../../../components/page/PageLoader.tsx';
import { useAllConnections } from '../../../features/connections/api/list-all-connections.ts';
import { ConnectionTable } from '../../../features/connections/components/ConnectionTable.tsx';
import { useCollectionDataSources } from '../../../features/data-sources/api/get-collection-data-sources.ts';
import { DataSourceTable } from '../../../features/data-sources/components/DataSourceTable.tsx';
import { NewConnectionButton } from './NewConnectionButton.tsx';

// A collection's Data assets and Connections tabs (view and edit screens alike): loading → error → empty → data.

function NewAssetButton({ collection }: { collection: CollectionDetail }) {
  if (!collection.can.editAssets) return null;
  return (
    <Button component={Link} to={paths.collectionCreateAsset(collection.uid)} leftSection={<IconPlus size={16} />}>
      New data asset
    </Button>
  );
}

export function DataAssetsPanel({ collection }: { collection: CollectionDetail }) {
  const assets = useCollectionDataSources(collection.uid);
  if (assets.isPending) return <PageLoader label="Loading the data assets" />;
  if (assets.isError) return <InlineError error={assets.error} />;
  if (assets.data.length === 0) {
    return (
      <EmptyPanel
        icon={<IconDatabase size={28} stroke={1.5} />}
        title="No data assets yet"
        description="Data assets are the stored queries of this collection that its readers can call."
        actions={<NewAssetButton collection={collection} />}
      />
    );
  }
  return (
    <Stack gap="sm">
      <Group justify="flex-end">
        <NewAssetButton collection={collection} />
      </Group>
      <DataSourceTable dataSources={assets.data} />
    </Stack>
  );
}

interface ConnectionsPanelProps {
  collection: CollectionDetail;
  /** The edit screen's tab: Owners may create a connection there. */
  isEditing?: boolean;
}

export function ConnectionsPanel({ collection, isEditing = false }: ConnectionsPanelProps) {
  const connections = useAllConnections(collection.uid);
  // Owners manage connections (the server decides; manageRoles is what an Owner or an administrator holds).
  const create = isEditing && collection.can.manageRoles ? <NewConnectionButton collection={collection} /> : null;
  if (connections.isPending) return <PageLoader label="Loading the connections" />;
  if (connections.error) return <InlineError error={connections.error} />;
  if (connections.sql.length === 0 && connections.webApi.length === 0) {
    // On the view tab an Owner is led to where connections are added; anyone else is told who adds them.
    const addFromView =
      !isEditing && collection.can.manageRoles ? (
        <Button
          component={Link}
          to={paths.collectionEdit(collection.uid, 'connections')}
          leftSection={<IconPlus size={16} />}
        >
          Add a connection
        </Button>
      ) : null;
    const who = collection.can.manageRoles ? '' : ' The collection’s owners add them.';
    return (
      <EmptyPanel
        icon={<IconPlugConnected size={28} stroke={1.5} />}
        title="No connections yet"
        description={`Connections are the databases and web APIs this collection's data assets run on.${who}`}
        actions={create ?? addFromView}
      />
    );
  }
  const editHref = collection.can.manageRoles
    ? (connection: { name: string }) => paths.collectionEditConnection(collection.uid, connection.name)
    : undefined;
  return (
    <Stack gap="sm">
      {create ? <Group justify="flex-end">{create}</Group> : null}
      <ConnectionTable connections={connections.sql} webApiConnections={connections.webApi} editHref={editHref} />
    </Stack>
  );
}
