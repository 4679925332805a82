import { describe, expect, it } from 'vitest';
import { LOGIN_REDIRECT_KEY } from '@datalab/contract/paths';
import { buildPortalConfig, buildUser } from '../../test/builders.ts';
import { loginUrl, rememberLoginRedirect, safeReturnPath, takeLoginRedirect } from './login-redirect.ts';
import { isSignedIn } from './session.ts';
import { userManagerSettings } from './user-manager.ts';

describe('the login redirect', () => {
  it('accepts same-origin paths with their search', () => {
    expect(safeReturnPath('/collection/abc?tab=roles')).toBe('/collection/abc?tab=roles');
  });

  it('falls back to home for anything else', () => {
    for (const value of [
      null,
      '',
      'collection',
      '//evil.example',
      '/\\evil.example',
      'https://evil.example/',
      '/login?returnUrl=/x',
      '/auth/token',
      '/LOGOUT',
    ]) {
      expect(safeReturnPath(value)).toBe('/');
    }
  });

  it('refuses anything a browser could read as another origin: backslashes, tabs, newlines, control characters', () => {
    const hostile = [
      '/\t/evil.example', // the URL parser drops tabs and newlines: this would become //evil.example
      '/\n/evil.example',
      '/\r\n/evil.example',
      '\t//evil.example',
      ' //evil.example',
      '/\\/evil.example',
      '/collection\\..\\//evil.example',
      '/\u0000/evil.example',
      '/\u001f/x',
      '/\u007f/x',
      'javascript:alert(1)',
      '/%0a/x'.replace('%0a', '\n'),
      '/\u2028/evil.example',
    ];
    for (const value of hostile) expect(safeReturnPath(value), JSON.stringify(value)).toBe('/');
  });

  it('keeps ordinary paths with encoded characters, queries and fragments', () => {
    for (const value of [
      '/collection/a%2Fb',
      '/management/user?search=o%27brien&page=2',
      '/collection/x#access',
      '/',
    ]) {
      expect(safeReturnPath(value)).toBe(value);
    }
  });

  it('is stored in sessionStorage and taken exactly once', () => {
    rememberLoginRedirect('/tokens');
    expect(window.sessionStorage.getItem(LOGIN_REDIRECT_KEY)).toBe('/tokens');
    expect(takeLoginRedirect()).toBe('/tokens');
    expect(takeLoginRedirect()).toBe('/');
  });

  it('builds /login?returnUrl=…', () => {
    expect(loginUrl('/tokens?page=2')).toBe('/login?returnUrl=%2Ftokens%3Fpage%3D2');
  });
});

describe('isSignedIn', () => {
  it('is false without a user or once the token has expired', () => {
    expect(isSignedIn(null)).toBe(false);
    expect(isSignedIn(undefined)).toBe(false);
    expect(isSignedIn(buildUser({ expiresInSeconds: -1 }))).toBe(false);
    expect(isSignedIn(buildUser({ expiresInSeconds: 300 }))).toBe(true);
  });
});

describe('the sign-in settings', () => {
  it('use the portal config, code flow, the SPA callback routes and silent renew', () => {
    const settings = userManagerSettings(
      buildPortalConfig({ authority: 'https://id.example/oidc', clientId: 'portal' }),
      'https://lab.example',
      window.sessionStorage,
    );
    expect(settings).toMatchObject({
      authority: 'https://id.example/oidc',
      client_id: 'portal',
      response_type: 'code',
      scope: 'profile openid email LOS locality country',
      redirect_uri: 'https://lab.example/auth/token',
      post_logout_redirect_uri: 'https://lab.example/auth/logout',
      automaticSilentRenew: true,
      accessTokenExpiringNotificationTimeInSeconds: 60,
    });
  });

  it("fall back to product §9's scopes when the server lists none", () => {
    const settings = userManagerSettings(
      buildPortalConfig({ scopes: [] }),
      'https://lab.example',
      window.sessionStorage,
    );
    expect(settings.scope).toBe('profile openid email LOS locality country');
  });
});
