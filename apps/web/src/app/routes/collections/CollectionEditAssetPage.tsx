import { useParams } from 'react-router';
import { paths } from '@datalab/contract/paths';
import { UpcomingScreen } from '../../../components/page/UpcomingScreen.tsx';

export function CollectionEditAssetPage() {
  const { uid, dataAssetUid } = useParams();
  return (
    <UpcomingScreen
      title="Edit data asset"
      description="Define a data asset of this collection: its SQL or Web API request, parameters, transformations and client tool configuration."
      purpose="Here editors will change this data asset and try it out."
      context={{ Collection: uid, 'Data asset': dataAssetUid }}
      back={{ to: paths.collections, label: 'All collections' }}
    />
  );
}
