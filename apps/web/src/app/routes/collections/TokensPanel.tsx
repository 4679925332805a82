import type { CollectionDetail } from '@datalab/contract/api/collections';
import { usePortalConfig } from '../../../config/portal-config-context.tsx';
import { CollectionTokens } from '../../../features/tokens/components/CollectionTokens.tsx';

/** A collection's Tokens tab (view and edit screens alike): its collection tokens; Owners create them. */
export function TokensPanel({ collection }: { collection: CollectionDetail }) {
  const { tokenExpiry } = usePortalConfig();
  return <CollectionTokens collection={collection} settings={tokenExpiry} canCreate={collection.myRole === 'Owner'} />;
}
