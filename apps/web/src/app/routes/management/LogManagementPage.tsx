import { UpcomingScreen } from '../../../components/page/UpcomingScreen.tsx';

export function LogManagementPage() {
  return (
    <UpcomingScreen
      title="Log management"
      description="The application log: errors and events with their request ids, to investigate a problem a user reported."
      purpose="Here administrators will search and read the application log."
    />
  );
}
