import type { CurrentUser } from '@datalab/contract/api/account';
import type { AuthUser } from '../../plugins/auth.ts';

export function presentCurrentUser(user: AuthUser, canCreateCollections: boolean): CurrentUser {
  return {
    id: user.id,
    name: user.name,
    username: user.username,
    email: user.email,
    permissions: { canManageUsers: user.canManageUsers },
    canCreateCollections,
  };
}
