import { useParams } from 'react-router';
import { paths } from '@datalab/contract/paths';
import { UpcomingScreen } from '../../../components/page/UpcomingScreen.tsx';

export function CollectionPage() {
  const { uid, tab } = useParams();
  return (
    <UpcomingScreen
      title="Collection"
      description="A collection: its data assets, connections, the people and groups holding roles in it, its tokens and its usage."
      purpose="Here you will browse this collection and call its data assets."
      context={{ Collection: uid, Tab: tab }}
      back={{ to: paths.collections, label: 'All collections' }}
    />
  );
}
