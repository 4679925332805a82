import { paths } from '@datalab/contract/paths';
import { UpcomingScreen } from '../../../components/page/UpcomingScreen.tsx';

export function CollectionCreatePage() {
  return (
    <UpcomingScreen
      title="Create collection"
      description="Start a new collection: give it a name and a description; you become its owner and can then add connections and data assets."
      purpose="Here you will create a collection."
      back={{ to: paths.collections, label: 'All collections' }}
    />
  );
}
