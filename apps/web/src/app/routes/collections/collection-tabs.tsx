import type { ReactNode } from 'react';
import { Container } from '@mantine/core';
import {
  IconChartBar,
  IconDatabase,
  IconInfoCircle,
  IconKey,
  IconPlugConnected,
  IconShieldLock,
} from '@tabler/icons-react';
import type { CollectionDetail } from '@datalab/contract/api/collections';
import { paths } from '@datalab/contract/paths';
import { InlineError } from '../../../components/error/InlineError.tsx';
import { NotFoundState } from '../../../components/page/NotFoundState.tsx';
import { PageLoader } from '../../../components/page/PageLoader.tsx';
import type { RouteTab } from '../../../components/tabs/RouteTabs.tsx';
import { useCollection } from '../../../features/collections/api/get-collection.ts';
import { isNotFound } from '../../../lib/api-error.ts';

export type CollectionTab = 'overview' | 'data-assets' | 'connections' | 'access' | 'tokens' | 'usage';

/** `withUsage`: the view screen's Usage tab, for those who may see usage (features/usage/access.ts). */
export function collectionTabs(
  collection: CollectionDetail,
  { withUsage = false }: { withUsage?: boolean } = {},
): RouteTab<CollectionTab>[] {
  return [
    { value: 'overview', label: 'Overview', icon: <IconInfoCircle size={16} /> },
    { value: 'data-assets', label: 'Data assets', icon: <IconDatabase size={16} />, count: collection.assetCount },
    {
      value: 'connections',
      label: 'Connections',
      icon: <IconPlugConnected size={16} />,
      count: collection.connectionCount,
    },
    { value: 'access', label: 'Access', icon: <IconShieldLock size={16} /> },
    // Collection tokens are for those who manage the collection's roles (its Owners; administrators).
    ...(collection.can.manageRoles ? [{ value: 'tokens' as const, label: 'Tokens', icon: <IconKey size={16} /> }] : []),
    ...(withUsage ? [{ value: 'usage' as const, label: 'Usage', icon: <IconChartBar size={16} /> }] : []),
  ];
}

/** The URL segment of a tab of the editor: none for the overview, where editing starts. */
export const tabSegment = (tab: CollectionTab) => (tab === 'overview' ? undefined : tab);

/** The tab a collection opens on: its data assets, what most readers come for (the overview is a tab away). */
export const VIEW_START_TAB: CollectionTab = 'data-assets';

/** The URL segment of a tab of the view: none for the data assets, where it opens. */
export const viewTabSegment = (tab: CollectionTab) => (tab === VIEW_START_TAB ? undefined : tab);

/** Loads the collection of the URL: loading, not found (gone or not shared), failed, or the screen. */
export function CollectionGate({
  uid,
  children,
}: {
  uid: string;
  children: (collection: CollectionDetail) => ReactNode;
}) {
  const collection = useCollection(uid);
  if (collection.isPending) return <PageLoader label="Loading the collection" />;
  if (collection.isError) {
    if (isNotFound(collection.error)) {
      return <NotFoundState what="This collection" back={{ to: paths.collections, label: 'All collections' }} />;
    }
    return (
      <Container size="xl" py="xl">
        <InlineError error={collection.error} />
      </Container>
    );
  }
  return children(collection.data);
}
