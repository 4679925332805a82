import { UpcomingScreen } from '../../../components/page/UpcomingScreen.tsx';

export function DigitalLabTokensPage() {
  return (
    <UpcomingScreen
      title="Your tokens"
      description="The access tokens your programs use to call the data assets shared with you."
      purpose="Here you will see and revoke your tokens."
    />
  );
}
