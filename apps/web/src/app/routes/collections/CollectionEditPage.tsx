import { useParams } from 'react-router';
import { paths } from '@datalab/contract/paths';
import { UpcomingScreen } from '../../../components/page/UpcomingScreen.tsx';

export function CollectionEditPage() {
  const { uid, tab } = useParams();
  return (
    <UpcomingScreen
      title="Edit collection"
      description="Change a collection: its details, its connections and data assets, and who holds which data role in it."
      purpose="Here owners will edit this collection."
      context={{ Collection: uid, Tab: tab }}
      back={{ to: paths.collections, label: 'All collections' }}
    />
  );
}
