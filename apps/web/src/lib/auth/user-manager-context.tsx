import { createContext, useContext, type ReactNode } from 'react';
import type { UserManager } from 'oidc-client-ts';

// react-oidc-context does not expose the post-logout callback; the route that handles it needs
// the UserManager itself.

const UserManagerContext = createContext<UserManager | null>(null);

export function UserManagerProvider({ userManager, children }: { userManager: UserManager; children: ReactNode }) {
  return <UserManagerContext value={userManager}>{children}</UserManagerContext>;
}

export function useUserManager(): UserManager {
  const userManager = useContext(UserManagerContext);
  if (!userManager) throw new Error('useUserManager must be used inside UserManagerProvider');
  return userManager;
}
