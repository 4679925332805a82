import { User, UserManager } from 'oidc-client-ts';
import type { AuthContextProps } from 'react-oidc-context';
import { vi } from 'vitest';
import type { z } from 'zod';
import type { CurrentUser } from '@datalab/contract/api/account';
import type { collectionDetail, collectionSummary } from '@datalab/contract/api/collections';
import type { effectiveRole, userDataRoles } from '@datalab/contract/api/data-roles';
import type { PortalConfig } from '@datalab/contract/api/portal-config';
import type { userGroupDetail } from '@datalab/contract/api/user-groups';
import type { userListItem } from '@datalab/contract/api/users';
import { userManagerSettings } from '../lib/auth/user-manager.ts';

// Test data from builders with overrides (code-style habit 12).

export function buildPortalConfig(overrides: Partial<PortalConfig> = {}): PortalConfig {
  return {
    productName: 'Data Lab',
    authority: 'http://localhost:8080/oidc',
    clientId: 'datalab-web',
    scopes: ['profile', 'openid', 'email', 'LOS', 'locality', 'country'],
    apiBaseUrl: '',
    callingLayerUrl: 'http://localhost:8080/call',
    tokenExpiry: { defaultDays: 30, maxDays: 365, allowNoExpiry: false },
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
    canCreateCollections: false,
    canUseDigitalLab: false,
    isDigitalLabOnly: false,
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
    profile: {
      sub: 'ada',
      iss: 'http://localhost:8080/oidc',
      aud: 'datalab-web',
      exp: now + expiresInSeconds,
      iat: now,
      name,
    },
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

// Access model (product §14): collections, roles, users, groups. These are replies as the server
// sends them, in the contract's wire form (date-times as ISO text), for the fake API to serve.

type Wire<S extends z.ZodType> = z.input<S>;

export function buildCollectionDetail(
  overrides: Partial<Wire<typeof collectionDetail>> = {},
): Wire<typeof collectionDetail> {
  return {
    id: 1,
    uid: 'col-1',
    name: 'Sales',
    description: 'Orders and customers',
    mcpEnabled: true,
    myRole: 'Owner',
    assetCount: 0,
    connectionCount: 0,
    createdAt: '2026-01-05T09:30:00.000Z',
    updatedAt: '2026-01-06T10:00:00.000Z',
    createdBy: { id: 1, name: 'Ada Lovelace', username: 'ada' },
    owners: [{ id: 1, name: 'Ada Lovelace', username: 'ada' }],
    ownerGroups: [],
    can: { edit: true, manageRoles: true, delete: true, editAssets: true },
    ...overrides,
  };
}

export function buildCollectionSummary(
  overrides: Partial<Wire<typeof collectionSummary>> = {},
): Wire<typeof collectionSummary> {
  const {
    connectionCount: _c,
    createdBy: _b,
    owners: _o,
    ownerGroups: _g,
    can: _can,
    ...summary
  } = buildCollectionDetail();
  return { ...summary, ...overrides };
}

export function buildUserListItem(overrides: Partial<Wire<typeof userListItem>> = {}): Wire<typeof userListItem> {
  return {
    id: 2,
    name: 'Grace Hopper',
    username: 'grace',
    email: 'grace@example.org',
    permissions: { canManageUsers: false },
    isActive: true,
    lastSeenAt: null,
    createdAt: '2026-01-05T09:30:00.000Z',
    groups: [],
    ...overrides,
  };
}

export function buildUserGroupDetail(
  overrides: Partial<Wire<typeof userGroupDetail>> = {},
): Wire<typeof userGroupDetail> {
  return {
    id: 12,
    name: 'Analysts',
    description: 'People who analyse',
    memberCount: 0,
    childCount: 0,
    parentCount: 0,
    createdAt: '2026-01-05T09:30:00.000Z',
    parents: [],
    children: [],
    ...overrides,
  };
}

type EffectiveRole = Wire<typeof effectiveRole>;
type ViaGroup = EffectiveRole['viaGroups'][number];

/** A group that gives a role; its path is the group alone unless the overrides give one through nesting. */
export function buildViaGroup(overrides: Partial<ViaGroup> = {}): ViaGroup {
  const { id = 3, name = 'Staff' } = overrides;
  return { id, name, role: 'Reader', path: [{ id, name }], ...overrides };
}

export function buildEffectiveRole(overrides: Partial<EffectiveRole> = {}): EffectiveRole {
  return { collection: { uid: 'col-1', name: 'Sales' }, role: 'Reader', directRole: null, viaGroups: [], ...overrides };
}

export function buildUserDataRoles(overrides: Partial<Wire<typeof userDataRoles>> = {}): Wire<typeof userDataRoles> {
  return { user: { id: 1, name: 'Ada Lovelace', username: 'ada' }, roles: [], ...overrides };
}

export function pageOfItems<T>(items: T[], overrides: { totalCount?: number; page?: number; pageSize?: number } = {}) {
  return { items, totalCount: items.length, page: 1, pageSize: 20, ...overrides };
}
