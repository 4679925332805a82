import { Outlet, ScrollRestoration } from 'react-router';
import { NavigationProgress } from './layouts/NavigationProgress.tsx';

export function RootRoute() {
  return (
    <>
      <NavigationProgress />
      <Outlet />
      <ScrollRestoration />
    </>
  );
}
