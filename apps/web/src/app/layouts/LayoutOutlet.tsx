import { Outlet, useLocation, useMatch } from 'react-router';
import { paths } from '@datalab/contract/paths';
import { ErrorBoundary } from '../../components/error/ErrorBoundary.tsx';
import { MobileGate } from '../../components/mobile/MobileGate.tsx';

/**
 * Page content of a layout: render failures are caught here, and small screens are turned away, except
 * from home (product §2) and the policy pages, which sign-in and the footer link to (docs/decisions.md 48).
 */
export function LayoutOutlet() {
  const location = useLocation();
  const isHome = useMatch(paths.home) !== null;
  const isPolicy = useMatch('/policy/*') !== null;
  return (
    <ErrorBoundary resetKey={location.pathname}>
      <MobileGate isExempt={isHome || isPolicy}>
        <Outlet />
      </MobileGate>
    </ErrorBoundary>
  );
}
