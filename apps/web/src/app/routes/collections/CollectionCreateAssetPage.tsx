import { useParams } from 'react-router';
import { AssetEditorScreen } from './AssetEditorScreen.tsx';
import { CollectionGate } from './collection-tabs.tsx';

/** /collection/{uid}/createAsset: a new SQL data asset in the collection. */
export function CollectionCreateAssetPage() {
  const { uid = '' } = useParams();
  return <CollectionGate uid={uid}>{(collection) => <AssetEditorScreen collection={collection} />}</CollectionGate>;
}
