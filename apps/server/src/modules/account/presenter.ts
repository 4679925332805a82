import type { CurrentUser } from '@datalab/contract/api/account';
import type { AuthUser } from '../../lib/auth-user.ts';

export interface CurrentUserFacts {
  canCreateCollections: boolean;
  isDigitalLabPartner: boolean;
  isDigitalLabOnly: boolean;
}

export function presentCurrentUser(user: AuthUser, facts: CurrentUserFacts): CurrentUser {
  return {
    id: user.id,
    name: user.name,
    username: user.username,
    email: user.email,
    permissions: { canManageUsers: user.canManageUsers },
    canCreateCollections: facts.canCreateCollections,
    canUseDigitalLab: facts.isDigitalLabPartner || user.canManageUsers,
    isDigitalLabOnly: facts.isDigitalLabOnly && !user.canManageUsers,
  };
}
