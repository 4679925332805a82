import { Button, Select, Stack } from '@mantine/core';
import { IconCode, IconFolderPlus, IconPlugConnected } from '@tabler/icons-react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import type { CollectionSummary } from '@datalab/contract/api/collections';
import { paths } from '@datalab/contract/paths';
import { InlineError } from '../../../components/error/InlineError.tsx';
import { EmptyPanel } from '../../../components/page/EmptyPanel.tsx';
import { PageFrame } from '../../../components/page/PageFrame.tsx';
import { PageLoader } from '../../../components/page/PageLoader.tsx';
import { PlaygroundWorkbench } from '../../../features/asset-editor/components/PlaygroundWorkbench.tsx';
import { PLAYGROUND_DRAFT_STATE } from '../../../features/asset-editor/model/playground.ts';
import { useOwnedCollections } from '../../../features/collections/api/get-owned-collections.ts';
import { useAllConnections } from '../../../features/connections/api/list-all-connections.ts';
import { setDeveloperMode, useDeveloperMode } from '../../../lib/developer-mode.ts';

// /playground (developer mode, product §2 and product §17): ad-hoc SQL or HTTP on a connection of a collection the caller
// owns, nothing saved. The chosen collection is in the URL (?collection=uid), so a reload keeps it.

const COLLECTION_PARAM = 'collection';

function CollectionField({ collections, value }: { collections: readonly CollectionSummary[]; value: string }) {
  const [, setSearchParams] = useSearchParams();
  return (
    <Select
      label="Collection"
      data={collections.map((c) => ({ value: c.uid, label: c.name }))}
      value={value}
      allowDeselect={false}
      onChange={(uid) => {
        if (uid) setSearchParams({ [COLLECTION_PARAM]: uid }, { replace: true });
      }}
    />
  );
}

function Workbench({
  collections,
  collectionUid,
}: {
  collections: readonly CollectionSummary[];
  collectionUid: string;
}) {
  const navigate = useNavigate();
  const connections = useAllConnections(collectionUid);
  if (connections.isPending) return <PageLoader label="Loading the connections" />;
  if (connections.error) return <InlineError error={connections.error} />;
  if (connections.sql.length === 0 && connections.webApi.length === 0) {
    // The picker stays: another collection the caller owns may have connections.
    return (
      <Stack gap="md">
        <CollectionField collections={collections} value={collectionUid} />
        <EmptyPanel
          icon={<IconPlugConnected size={28} stroke={1.5} />}
          title="No connection in this collection"
          description="The playground runs on a collection's database or web API connection. Add one to the collection first."
          actions={
            <Button component={Link} to={paths.collectionEdit(collectionUid, 'connections')} variant="light">
              Open its connections
            </Button>
          }
        />
      </Stack>
    );
  }
  return (
    <PlaygroundWorkbench
      key={collectionUid}
      collectionUid={collectionUid}
      connections={connections}
      collectionField={<CollectionField collections={collections} value={collectionUid} />}
      onSaveAsAsset={(draft) =>
        void navigate(paths.collectionCreateAsset(collectionUid), { state: { [PLAYGROUND_DRAFT_STATE]: draft } })
      }
    />
  );
}

function Playground() {
  const [searchParams] = useSearchParams();
  const collections = useOwnedCollections();
  if (collections.isPending) return <PageLoader label="Loading your collections" />;
  if (collections.isError) return <InlineError error={collections.error} />;
  if (collections.data.length === 0) {
    return (
      <EmptyPanel
        icon={<IconFolderPlus size={28} stroke={1.5} />}
        title="You own no collection yet"
        description="The playground runs on the connections of a collection you own. Create one, add a connection to it, and come back."
        actions={
          <Button component={Link} to={paths.collectionCreate} variant="light">
            Create a collection
          </Button>
        }
      />
    );
  }
  const wanted = searchParams.get(COLLECTION_PARAM);
  const chosen = collections.data.find((c) => c.uid === wanted) ?? collections.data[0];
  if (!chosen) return null;
  return <Workbench collections={collections.data} collectionUid={chosen.uid} />;
}

export function PlaygroundPage() {
  const isDeveloperMode = useDeveloperMode();
  return (
    <PageFrame
      title="Playground"
      description="Run ad-hoc SQL or an HTTP request on a connection of a collection you own, with the same limits as a stored data asset. Nothing is saved unless you keep it as a data asset."
    >
      {isDeveloperMode ? (
        <Playground />
      ) : (
        <EmptyPanel
          icon={<IconCode size={28} stroke={1.5} />}
          title="The playground is a developer-mode tool"
          description="Turn developer mode on to write and run queries and requests here."
          actions={<Button onClick={() => setDeveloperMode(true)}>Turn on developer mode</Button>}
        />
      )}
    </PageFrame>
  );
}
