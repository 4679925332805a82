import { isRouteErrorResponse, useRouteError } from 'react-router';
import { RenderFailure } from '../../../components/error/RenderFailure.tsx';
import { NotFoundPage } from './NotFoundPage.tsx';

function toError(value: unknown): Error {
  if (isRouteErrorResponse(value)) return new Error(`${value.status} ${value.statusText}`.trim());
  return value instanceof Error ? value : new Error(String(value));
}

/**
 * The router's own boundary: failures outside page content (a layout, or a route module that
 * would not load). 'Try again' reloads, which also fetches the module afresh.
 */
export function RouteErrorFallback() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundPage />;
  return <RenderFailure error={toError(error)} onRetry={() => window.location.reload()} />;
}
