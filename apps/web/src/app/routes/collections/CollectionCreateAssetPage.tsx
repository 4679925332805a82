import { useParams } from 'react-router';
import { paths } from '@datalab/contract/paths';
import { UpcomingScreen } from '../../../components/page/UpcomingScreen.tsx';

export function CollectionCreateAssetPage() {
  const { uid } = useParams();
  return (
    <UpcomingScreen
      title="Create data asset"
      description="Add a data asset to this collection: a parameterised SQL query over a SQL connection, or an HTTP request over a Web API connection."
      purpose="Here editors will create a data asset in this collection."
      context={{ Collection: uid }}
      back={{ to: paths.collections, label: 'All collections' }}
    />
  );
}
