import { UpcomingScreen } from '../../../components/page/UpcomingScreen.tsx';

export function DataSourceListPage() {
  return (
    <UpcomingScreen
      title="Data assets"
      description="Every data source you can reach, across all your collections: the SQL queries and Web API requests that data owners have published."
      purpose="Here you will search and page through data sources and open one to see or call it."
    />
  );
}
