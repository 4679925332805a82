import { Button, Group, Stack, Text } from '@mantine/core';
import { IconPencil } from '@tabler/icons-react';
import { Link, Navigate, useParams } from 'react-router';
import type { CollectionDetail } from '@datalab/contract/api/collections';
import { paths } from '@datalab/contract/paths';
import { PageFrame } from '../../../components/page/PageFrame.tsx';
import { PageLoader } from '../../../components/page/PageLoader.tsx';
import { RoleBadge } from '../../../components/roles/RoleBadge.tsx';
import { RouteTabs, tabFromSegment } from '../../../components/tabs/RouteTabs.tsx';
import { useCurrentUser } from '../../../features/account/api/get-current-user.ts';
import { CollectionOverview } from '../../../features/collections/components/CollectionOverview.tsx';
import { DefinitionMenu } from '../../../features/definitions/components/DefinitionMenu.tsx';
import { CollectionAccess } from '../../../features/data-roles/components/CollectionAccess.tsx';
import { MyAccess } from '../../../features/data-roles/components/MyAccess.tsx';
import { canSeeUsage } from '../../../features/usage/access.ts';
import { CollectionUsage } from '../../../features/usage/components/CollectionUsage.tsx';
import {
  CollectionGate,
  collectionTabs,
  tabSegment,
  VIEW_START_TAB,
  viewTabSegment,
  type CollectionTab,
} from './collection-tabs.tsx';
import { ConnectionsPanel, DataAssetsPanel } from './ContentsPanels.tsx';
import { TokensPanel } from './TokensPanel.tsx';

function AccessPanel({ collection }: { collection: CollectionDetail }) {
  const currentUser = useCurrentUser();
  if (!currentUser.data) return <PageLoader label="Loading your access" />;
  if (!collection.can.manageRoles) return <MyAccess userId={currentUser.data.id} collectionUid={collection.uid} />;
  const isAdministrator = currentUser.data.permissions.canManageUsers;
  return (
    <Stack gap="lg">
      <Group justify="space-between">
        <Text size="sm" c="dimmed">
          Who holds which data role on {collection.name}. A group&apos;s role reaches all its members.
        </Text>
        <Button
          component={Link}
          to={paths.collectionEdit(collection.uid, 'access')}
          variant="light"
          leftSection={<IconPencil size={16} />}
        >
          Edit
        </Button>
      </Group>
      <CollectionAccess
        uid={collection.uid}
        currentUserId={currentUser.data.id}
        groupHref={isAdministrator ? (id) => paths.userGroup(id, 'members') : undefined}
      />
    </Stack>
  );
}

function CollectionView({
  collection,
  tab,
  withUsage,
}: {
  collection: CollectionDetail;
  tab: CollectionTab;
  withUsage: boolean;
}) {
  const canEdit = collection.can.edit || collection.can.manageRoles;
  return (
    <PageFrame
      title={collection.name}
      description={collection.description || undefined}
      actions={
        <>
          <Group gap={6}>
            <Text size="sm" c="dimmed">
              Your role
            </Text>
            <RoleBadge role={collection.myRole} size="lg" />
          </Group>
          {/* Definitions as code: Owners only, as the calls are. */}
          {collection.can.edit ? <DefinitionMenu collection={collection} /> : null}
          {canEdit ? (
            <Button
              component={Link}
              // The editor has no Usage tab: from there, edit the overview.
              to={paths.collectionEdit(collection.uid, tab === 'usage' ? undefined : tabSegment(tab))}
              leftSection={<IconPencil size={16} />}
            >
              Edit collection
            </Button>
          ) : null}
        </>
      }
    >
      <RouteTabs
        label="Collection sections"
        tabs={collectionTabs(collection, { withUsage })}
        value={tab}
        pathFor={(next) => paths.collection(collection.uid, viewTabSegment(next))}
      >
        {tab === 'overview' ? <CollectionOverview collection={collection} /> : null}
        {tab === 'data-assets' ? <DataAssetsPanel collection={collection} /> : null}
        {tab === 'connections' ? <ConnectionsPanel collection={collection} /> : null}
        {tab === 'access' ? <AccessPanel collection={collection} /> : null}
        {tab === 'tokens' ? <TokensPanel collection={collection} /> : null}
        {tab === 'usage' ? <CollectionUsage collection={collection} /> : null}
      </RouteTabs>
    </PageFrame>
  );
}

/** /collection/{uid}/{tab?}: a collection, its tab named in the URL; without one, its data assets. */
export function CollectionPage() {
  const { uid = '', tab: segment } = useParams();
  const currentUser = useCurrentUser();
  const isAdministrator = currentUser.data?.permissions.canManageUsers ?? false;
  return (
    <CollectionGate uid={uid}>
      {(collection) => {
        const withUsage = canSeeUsage({ canEditAssets: collection.can.editAssets, isAdministrator });
        const tab = tabFromSegment(collectionTabs(collection, { withUsage }), segment, VIEW_START_TAB);
        // Wait for the current user before deciding that a Usage link names no tab.
        if (tab === null && segment === 'usage' && currentUser.isPending)
          return <PageLoader label="Loading your access" />;
        if (tab === null) return <Navigate to={paths.collection(uid)} replace />;
        return <CollectionView collection={collection} tab={tab} withUsage={withUsage} />;
      }}
    </CollectionGate>
  );
}
