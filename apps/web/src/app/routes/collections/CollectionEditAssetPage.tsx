import { Navigate, useParams, useSearchParams } from 'react-router';
import type { CollectionDetail } from '@datalab/contract/api/collections';
import { paths } from '@datalab/contract/paths';
import { InlineError } from '../../../components/error/InlineError.tsx';
import { NotFoundState } from '../../../components/page/NotFoundState.tsx';
import { PageLoader } from '../../../components/page/PageLoader.tsx';
import { useDataSource } from '../../../features/data-sources/api/get-data-source.ts';
import { isNotFound } from '../../../lib/api-error.ts';
import { AssetEditorScreen } from './AssetEditorScreen.tsx';
import { CollectionGate } from './collection-tabs.tsx';

function EditAsset({ collection, assetUid }: { collection: CollectionDetail; assetUid: string }) {
  const asset = useDataSource(assetUid);
  const [search] = useSearchParams();
  const restored = search.get('restored');
  const back = { to: paths.collection(collection.uid, 'data-assets'), label: 'Data assets of the collection' };
  if (asset.isPending) return <PageLoader label="Loading the data asset" />;
  if (asset.isError)
    return isNotFound(asset.error) ? (
      <NotFoundState what="This data asset" back={back} />
    ) : (
      <InlineError error={asset.error} />
    );
  if (asset.data.collection.uid !== collection.uid) return <NotFoundState what="This data asset" back={back} />;
  // A restore from the History tab (`?restored=<version>`, set once the asset is reloaded) opens the editor afresh on
  // the definition it holds; other saves (tool settings) keep the editor as it is.
  return <AssetEditorScreen key={`${asset.data.uid}:${restored ?? ''}`} collection={collection} asset={asset.data} />;
}

/** /collection/{uid}/edit/data-asset/{dataAssetUid?}: change an asset; without one, create a new asset. */
export function CollectionEditAssetPage() {
  const { uid = '', dataAssetUid } = useParams();
  if (!dataAssetUid) return <Navigate to={paths.collectionCreateAsset(uid)} replace />;
  return (
    <CollectionGate uid={uid}>
      {(collection) => <EditAsset collection={collection} assetUid={dataAssetUid} />}
    </CollectionGate>
  );
}
