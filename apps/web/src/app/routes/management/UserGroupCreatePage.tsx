import { paths } from '@datalab/contract/paths';
import { UpcomingScreen } from '../../../components/page/UpcomingScreen.tsx';

export function UserGroupCreatePage() {
  return (
    <UpcomingScreen
      title="Create user group"
      description="Create a group, then add users and child groups to it and give it data roles on collections."
      purpose="Here administrators will create a user group."
      back={{ to: paths.userGroups, label: 'All user groups' }}
    />
  );
}
