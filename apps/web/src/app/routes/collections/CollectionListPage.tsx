import { UpcomingScreen } from '../../../components/page/UpcomingScreen.tsx';

export function CollectionListPage() {
  return (
    <UpcomingScreen
      title="Collections"
      description="Collections group related data assets with the connections they run on and the people allowed to use them."
      purpose="Here you will search the collections you have a role in and open one."
    />
  );
}
