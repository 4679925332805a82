import { UpcomingScreen } from '../../../components/page/UpcomingScreen.tsx';

export function CacheManagementPage() {
  return (
    <UpcomingScreen
      title="Cache management"
      description="Cached results, parameter data and metadata, by type: inspect entries, remove one, or purge the cache."
      purpose="Here administrators will inspect and clear the cache."
    />
  );
}
