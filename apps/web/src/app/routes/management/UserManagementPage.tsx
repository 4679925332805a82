import { UpcomingScreen } from '../../../components/page/UpcomingScreen.tsx';

export function UserManagementPage() {
  return (
    <UpcomingScreen
      title="User management"
      description="Everyone who has signed in to Data Lab, and their system permissions."
      purpose="Here administrators will find users and grant or withdraw user management."
    />
  );
}
