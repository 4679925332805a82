import { Container } from '@mantine/core';
import { Navigate, Outlet } from 'react-router';
import type { Permissions } from '@datalab/contract/api/account';
import { InlineError } from '../../components/error/InlineError.tsx';
import { PageLoader } from '../../components/page/PageLoader.tsx';
import { useCurrentUser } from '../../features/account/api/get-current-user.ts';
import { unauthorisedPageUrl } from '../../lib/error-page-url.ts';

/** product §4/§6: without the permission, the error page with 'Unauthorised'. Inside RequireSignIn. */
export function RequirePermission({ permission }: { permission: keyof Permissions }) {
  const currentUser = useCurrentUser();
  if (currentUser.isPending) return <PageLoader label="Checking your permissions" />;
  if (currentUser.isError) {
    return (
      <Container size="xl" py="xl">
        <InlineError error={currentUser.error} />
      </Container>
    );
  }
  if (!currentUser.data.permissions[permission]) return <Navigate to={unauthorisedPageUrl()} replace />;
  return <Outlet />;
}
