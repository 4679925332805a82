import { useLocation, useParams } from 'react-router';
import { assetDraftFromState } from '../../../features/asset-editor/model/playground.ts';
import { AssetEditorScreen } from './AssetEditorScreen.tsx';
import { CollectionGate } from './collection-tabs.tsx';

/** /collection/{uid}/createAsset: a new data asset in the collection, prefilled when it comes from the playground. */
export function CollectionCreateAssetPage() {
  const { uid = '' } = useParams();
  const location = useLocation();
  const initialDraft = assetDraftFromState(location.state);
  return (
    <CollectionGate uid={uid}>
      {(collection) => <AssetEditorScreen collection={collection} initialDraft={initialDraft} />}
    </CollectionGate>
  );
}
