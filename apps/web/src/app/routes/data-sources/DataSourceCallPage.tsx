import { useParams } from 'react-router';
import { paths } from '@datalab/contract/paths';
import { UpcomingScreen } from '../../../components/page/UpcomingScreen.tsx';

export function DataSourceCallPage() {
  const { uid } = useParams();
  return (
    <UpcomingScreen
      title="Call data source"
      description="Fill in the parameters of this data source, run it and see the result in a grid; large results can be downloaded."
      purpose="Here you will call this data source and page through or download its result."
      context={{ 'Data source': uid }}
      back={{ to: paths.dataSources, label: 'All data assets' }}
    />
  );
}
