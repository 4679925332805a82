import { useParams } from 'react-router';
import { paths } from '@datalab/contract/paths';
import { UpcomingScreen } from '../../../components/page/UpcomingScreen.tsx';

export function CollectionEditConnectionPage() {
  const { uid, connectionName } = useParams();
  return (
    <UpcomingScreen
      title="Edit connection"
      description="A connection of this collection: where its SQL database or Web API lives and the credentials used to reach it."
      purpose="Here owners will change this connection and test it."
      context={{ Collection: uid, Connection: connectionName }}
      back={{ to: paths.collections, label: 'All collections' }}
    />
  );
}
