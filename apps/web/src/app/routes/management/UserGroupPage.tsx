import { useParams } from 'react-router';
import { paths } from '@datalab/contract/paths';
import { UpcomingScreen } from '../../../components/page/UpcomingScreen.tsx';

export function UserGroupPage() {
  const { id, tab } = useParams();
  return (
    <UpcomingScreen
      title="User group"
      description="One user group: its members, its child groups, where it sits in the hierarchy and the data roles it holds."
      purpose="Here administrators will manage this group."
      context={{ Group: id, Tab: tab }}
      back={{ to: paths.userGroups, label: 'All user groups' }}
    />
  );
}
