import { paths } from '@datalab/contract/paths';
import { UpcomingScreen } from '../../../components/page/UpcomingScreen.tsx';

export function DigitalLabCreatePatPage() {
  return (
    <UpcomingScreen
      title="Create personal access token"
      description="Create a token for your programs, limited to the data shared with you. Its secret is shown once."
      purpose="Here you will create a personal access token."
      back={{ to: paths.digitalLabTokens, label: 'Your tokens' }}
    />
  );
}
