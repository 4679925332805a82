import { UpcomingScreen } from '../../../components/page/UpcomingScreen.tsx';

export function PlaygroundPage() {
  return (
    <UpcomingScreen
      title="Playground"
      description="Try ad-hoc SQL or HTTP requests against a connection you may edit, without saving a data source."
      purpose="Here you will write a query or request, run it and see the result."
    />
  );
}
