import { useParams } from 'react-router';
import { paths } from '@datalab/contract/paths';
import { UpcomingScreen } from '../../../components/page/UpcomingScreen.tsx';

export function DataSourcePage() {
  const { uid } = useParams();
  return (
    <UpcomingScreen
      title="Data source"
      description="One data source: its connection, parameters and their allowed values, transformations, client tool configuration and usage."
      purpose="Here you will review and edit how this data source runs."
      context={{ 'Data source': uid }}
      back={{ to: paths.dataSources, label: 'All data assets' }}
    />
  );
}
