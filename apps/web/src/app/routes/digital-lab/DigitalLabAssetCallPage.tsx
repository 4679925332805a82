import { useParams } from 'react-router';
import { paths } from '@datalab/contract/paths';
import { UpcomingScreen } from '../../../components/page/UpcomingScreen.tsx';

export function DigitalLabAssetCallPage() {
  const { uid } = useParams();
  return (
    <UpcomingScreen
      title="Call data asset"
      description="Call a data asset shared with you: fill in its parameters, run it and download the result."
      purpose="Here you will call this data asset."
      context={{ 'Data asset': uid }}
      back={{ to: paths.digitalLabTokens, label: 'Your tokens' }}
    />
  );
}
