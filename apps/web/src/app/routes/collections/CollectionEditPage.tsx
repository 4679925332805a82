import { Button } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { Link, Navigate, useParams } from 'react-router';
import type { CollectionDetail } from '@datalab/contract/api/collections';
import { paths } from '@datalab/contract/paths';
import { PageFrame } from '../../../components/page/PageFrame.tsx';
import { RouteTabs, tabFromSegment } from '../../../components/tabs/RouteTabs.tsx';
import { unauthorisedPageUrl } from '../../../lib/error-page-url.ts';
import { CollectionGate, collectionTabs, tabSegment, type CollectionTab } from './collection-tabs.tsx';
import { ConnectionsPanel, DataAssetsPanel } from './ContentsPanels.tsx';
import { TokensPanel } from './TokensPanel.tsx';
import { EditAccessPanel } from './EditAccessPanel.tsx';
import { EditOverviewPanel } from './EditOverviewPanel.tsx';

function CollectionEditor({ collection, tab }: { collection: CollectionDetail; tab: CollectionTab }) {
  return (
    <PageFrame
      title={`Edit ${collection.name}`}
      description="Change the collection's details and decide who may use it."
      actions={
        <Button
          component={Link}
          to={paths.collection(collection.uid, tabSegment(tab))}
          variant="default"
          leftSection={<IconArrowLeft size={16} />}
        >
          Back to collection
        </Button>
      }
    >
      <RouteTabs
        label="Edit collection sections"
        tabs={collectionTabs(collection)}
        value={tab}
        pathFor={(next) => paths.collectionEdit(collection.uid, tabSegment(next))}
      >
        {tab === 'overview' ? <EditOverviewPanel collection={collection} /> : null}
        {tab === 'data-assets' ? <DataAssetsPanel collection={collection} /> : null}
        {tab === 'connections' ? <ConnectionsPanel collection={collection} isEditing /> : null}
        {tab === 'access' ? <EditAccessPanel collection={collection} /> : null}
        {tab === 'tokens' ? <TokensPanel collection={collection} /> : null}
      </RouteTabs>
    </PageFrame>
  );
}

/** /collection/{uid}/edit/{tab?}: for those who may change the collection or its roles. */
export function CollectionEditPage() {
  const { uid = '', tab: segment } = useParams();
  return (
    <CollectionGate uid={uid}>
      {(collection) => {
        // product §4: a page the caller may not use goes to the error page with 'Unauthorised'.
        if (!collection.can.edit && !collection.can.manageRoles) return <Navigate to={unauthorisedPageUrl()} replace />;
        const tab = tabFromSegment(collectionTabs(collection), segment, 'overview');
        if (tab === null) return <Navigate to={paths.collectionEdit(uid)} replace />;
        return <CollectionEditor collection={collection} tab={tab} />;
      }}
    </CollectionGate>
  );
}
