import { paths } from '@datalab/contract/paths';
import { UpcomingScreen } from '../../../components/page/UpcomingScreen.tsx';

export function CreatePatPage() {
  return (
    <UpcomingScreen
      title="Create personal access token"
      description="A personal access token acts for you, limited to the collections and roles you choose, until it expires or is revoked. Its secret is shown once."
      purpose="Here you will create a personal access token."
      back={{ to: paths.tokens, label: 'All tokens' }}
    />
  );
}
