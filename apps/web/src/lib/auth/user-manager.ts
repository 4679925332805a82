import { UserManager, WebStorageStateStore, type UserManagerSettings } from 'oidc-client-ts';
import type { PortalConfig } from '@datalab/contract/api/portal-config';
import { limits } from '@datalab/contract/limits';
import { paths } from '@datalab/contract/paths';
import { signInScopes } from '../../config/portal-config.ts';

// product §13: authorization code + PKCE (oidc-client-ts always uses PKCE for response_type code),
// session kept in sessionStorage, silent renew through the refresh token, product §9 scopes.

export function userManagerSettings(config: PortalConfig, origin: string, storage: Storage): UserManagerSettings {
  const store = new WebStorageStateStore({ store: storage });
  return {
    authority: config.authority,
    client_id: config.clientId,
    response_type: 'code',
    scope: signInScopes(config),
    redirect_uri: `${origin}${paths.signInCallback}`,
    post_logout_redirect_uri: `${origin}${paths.postLogoutCallback}`,
    userStore: store,
    // The PKCE verifier and state of a sign-in in progress stay with the tab that started it.
    stateStore: store,
    automaticSilentRenew: true,
    accessTokenExpiringNotificationTimeInSeconds: limits.accessTokenExpiringNotificationSeconds,
    loadUserInfo: false,
    monitorSession: false,
  };
}

export function createUserManager(config: PortalConfig): UserManager {
  return new UserManager(userManagerSettings(config, window.location.origin, window.sessionStorage));
}
