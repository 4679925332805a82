import { UpcomingScreen } from '../../../components/page/UpcomingScreen.tsx';

export function UserGroupListPage() {
  return (
    <UpcomingScreen
      title="User group management"
      description="User groups give data roles to many people at once; groups can contain other groups."
      purpose="Here administrators will search, open and delete user groups."
    />
  );
}
