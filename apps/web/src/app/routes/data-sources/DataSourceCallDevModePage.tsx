import { useParams } from 'react-router';
import { paths } from '@datalab/contract/paths';
import { UpcomingScreen } from '../../../components/page/UpcomingScreen.tsx';

export function DataSourceCallDevModePage() {
  const { uid } = useParams();
  return (
    <UpcomingScreen
      title="Call data source (developer mode)"
      description="Call this data source and see everything about the exchange: the request sent, the raw response, timings and cache use."
      purpose="Here you will call this data source with the raw request and response details shown."
      context={{ 'Data source': uid }}
      back={{ to: paths.dataSources, label: 'All data assets' }}
    />
  );
}
