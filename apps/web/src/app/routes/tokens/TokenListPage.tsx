import { UpcomingScreen } from '../../../components/page/UpcomingScreen.tsx';

export function TokenListPage() {
  return (
    <UpcomingScreen
      title="Tokens"
      description="Access tokens let your programs call data assets through the calling layer. Each token carries data roles that can only narrow your own."
      purpose="Here you will see your tokens, change their data roles and revoke them."
    />
  );
}
