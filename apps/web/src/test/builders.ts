import { User, UserManager } from 'oidc-client-ts';
import type { AuthContextProps } from 'react-oidc-context';
import { vi } from 'vitest';
import type { CurrentUser } from '@datalab/contract/api/account';
import type { PortalConfig } from '@datalab/contract/api/portal-config';
import { userManagerSettings } from '../lib/auth/user-manager.ts';

// Test data from builders with overrides (STYLE habit 12).

export function buildPortalConfig(overrides: Partial<PortalConfig> = {}): PortalConfig {
  return {
    productName: 'Data Lab',
    authority: 'http://localhost:8080/oidc',
    clientId: 'datalab-web',
    scopes: ['profile', 'openid', 'email', 'LOS', 'locality', 'country'],
    apiBaseUrl: '',
    callingLayerUrl: 'http://localhost:8080/call',
    demoAccounts: [],
    ...overrides,
  };
}

export function buildCurrentUser(overrides: Partial<CurrentUser> = {}): CurrentUser {
  return {
    id: 1,
    name: 'Ada Lovelace',
    username: 'ada',
    email: 'ada@example.org',
    permissions: { canManageUsers: false },
    ...overrides,
  };
}

/** A real oidc-client-ts User, so `expired` is computed as in the app. */
export function buildUser({ expiresInSeconds = 3600, name = 'Ada Lovelace' } = {}): User {
  const now = Math.floor(Date.now() / 1000);
  return new User({
    access_token: 'access-token-1',
    id_token: 'id-token-1',
    token_type: 'Bearer',
    scope: 'openid profile',
    profile: { sub: 'ada', iss: 'http://localhost:8080/oidc', aud: 'datalab-web', exp: now + expiresInSeconds, iat: now, name },
    expires_at: now + expiresInSeconds,
  });
}

export function buildUserManager(config: PortalConfig = buildPortalConfig()): UserManager {
  return new UserManager(userManagerSettings(config, 'http://localhost:3000', window.sessionStorage));
}

export interface AuthOverrides {
  user?: User | null;
  isLoading?: boolean;
  error?: AuthContextProps['error'];
}

/** The react-oidc-context value, with every navigator a spy. */
export function buildAuth({ user = null, isLoading = false, error }: AuthOverrides = {}): AuthContextProps {
  const userManager = buildUserManager();
  return {
    user,
    isLoading,
    isAuthenticated: user !== null && !user.expired,
    error,
    settings: userManager.settings,
    events: userManager.events,
    clearStaleState: vi.fn(async () => undefined),
    removeUser: vi.fn(async () => undefined),
    signinPopup: vi.fn(async () => buildUser()),
    signinSilent: vi.fn(async () => null),
    signinRedirect: vi.fn(async () => undefined),
    signinResourceOwnerCredentials: vi.fn(async () => buildUser()),
    signoutRedirect: vi.fn(async () => undefined),
    signoutPopup: vi.fn(async () => undefined),
    signoutSilent: vi.fn(async () => undefined),
    querySessionStatus: vi.fn(async () => null),
    revokeTokens: vi.fn(async () => undefined),
    startSilentRenew: vi.fn(),
    stopSilentRenew: vi.fn(),
  };
}
