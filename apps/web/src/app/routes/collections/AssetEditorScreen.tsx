import { Tabs } from '@mantine/core';
import { IconHistory, IconPencil, IconPlugConnected } from '@tabler/icons-react';
import { useState, type ReactNode } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import type { CollectionDetail } from '@datalab/contract/api/collections';
import type { DataSourceDetail } from '@datalab/contract/api/data-sources';
import { paths } from '@datalab/contract/paths';
import { InlineError } from '../../../components/error/InlineError.tsx';
import { useUnsavedChangesGuard } from '../../../components/forms/use-unsaved-changes-guard.tsx';
import { EmptyPanel } from '../../../components/page/EmptyPanel.tsx';
import { PageFrame } from '../../../components/page/PageFrame.tsx';
import { PageLoader } from '../../../components/page/PageLoader.tsx';
import { AssetEditor } from '../../../features/asset-editor/components/AssetEditor.tsx';
import { AssetHistory } from '../../../features/asset-editor/components/AssetHistory.tsx';
import { useAllConnections } from '../../../features/connections/api/list-all-connections.ts';
import type { AssetDraft } from '../../../features/asset-editor/model/asset-draft.ts';

interface AssetEditorScreenProps {
  collection: CollectionDetail;
  asset?: DataSourceDetail;
  /** A new asset's starting point, from the playground. */
  initialDraft?: AssetDraft;
}

/** The create and edit screens of a data asset (SQL or Web API): the collection's connections, then the editor. */
export function AssetEditorScreen({ collection, asset, initialDraft }: AssetEditorScreenProps) {
  const navigate = useNavigate();
  const connections = useAllConnections(collection.uid);
  const [isDirty, setDirty] = useState(false);
  const guard = useUnsavedChangesGuard(isDirty);
  const title = asset ? `Edit ${asset.name}` : `New data asset in ${collection.name}`;
  const back = asset ? paths.dataSource(asset.uid) : paths.collection(collection.uid, 'data-assets');

  let body;
  if (!collection.can.editAssets) {
    body = <InlineError error="Only the collection's editors and owners change its data assets." />;
  } else if (connections.isPending) body = <PageLoader label="Loading the connections" />;
  else if (connections.error) body = <InlineError error={connections.error} />;
  else if (connections.sql.length === 0 && connections.webApi.length === 0) {
    body = (
      <EmptyPanel
        icon={<IconPlugConnected size={28} stroke={1.5} />}
        title="No connection to run on"
        description="A data asset runs on one of the collection's connections. Ask an owner of the collection to add one."
      />
    );
  } else {
    body = (
      <AssetEditor
        collectionUid={collection.uid}
        connections={connections}
        asset={asset}
        initialDraft={initialDraft}
        onDirtyChange={setDirty}
        onCancel={() => {
          guard.allowLeaving(true);
          void navigate(back);
        }}
        onSaved={(saved) => {
          guard.allowLeaving(true);
          void navigate(paths.dataSource(saved.uid));
        }}
      />
    );
  }
  return (
    <PageFrame
      title={title}
      description="A stored, parameterised SQL query or web API request that the collection's readers can call. Run or try it before saving."
    >
      <DefinitionAndHistory uid={asset && collection.can.editAssets ? asset.uid : undefined}>
        {body}
      </DefinitionAndHistory>
      {guard.prompt}
    </PageFrame>
  );
}

/**
 * An existing asset's editor beside its History (`?tab=history`). The editor stays mounted while History is open,
 * so a draft is not lost; a restore opens the editor again on the restored definition. Without a uid (a new asset,
 * or while the asset reloads) only the editor shows, at the same place in the tree, so it keeps its state.
 */
function DefinitionAndHistory({ uid, children }: { uid: string | undefined; children: ReactNode }) {
  const [search, setSearch] = useSearchParams();
  const tab = uid && search.get('tab') === 'history' ? 'history' : 'definition';
  const handleChange = (next: string | null) =>
    setSearch(next === 'history' ? { tab: 'history' } : {}, { replace: true });
  return (
    <Tabs value={tab} onChange={handleChange}>
      {uid ? (
        <Tabs.List aria-label="Data asset" mb="lg">
          <Tabs.Tab value="definition" leftSection={<IconPencil size={16} />}>
            Definition
          </Tabs.Tab>
          <Tabs.Tab value="history" leftSection={<IconHistory size={16} />}>
            History
          </Tabs.Tab>
        </Tabs.List>
      ) : null}
      <Tabs.Panel value="definition">{children}</Tabs.Panel>
      {uid ? (
        <Tabs.Panel value="history">
          {tab === 'history' ? (
            <AssetHistory
              uid={uid}
              onRestored={(version) => setSearch({ restored: String(version) }, { replace: true })}
            />
          ) : null}
        </Tabs.Panel>
      ) : null}
    </Tabs>
  );
}
