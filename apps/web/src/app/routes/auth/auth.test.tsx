import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { LOGIN_REDIRECT_KEY } from '@datalab/contract/paths';
import { buildAuth, buildUser } from '../../../test/builders.ts';
import { renderApp } from '../../../test/render-app.tsx';

const callbackError = () => Object.assign(new Error('invalid_grant'), { source: 'signinCallback' as const });
const redirectError = () =>
  Object.assign(new Error('unreachable'), { source: 'signinRedirect' as const, args: undefined });
const signoutError = () =>
  Object.assign(new Error('unreachable'), { source: 'signoutRedirect' as const, args: undefined });

describe('/login', () => {
  it('stores the returnUrl under the login-redirect key, then starts sign-in', async () => {
    const auth = buildAuth();
    renderApp({ path: '/login?returnUrl=%2Fcollection%2Fabc%3Ftab%3Droles', auth });
    await waitFor(() => expect(auth.signinRedirect).toHaveBeenCalledTimes(1));
    expect(window.sessionStorage.getItem(LOGIN_REDIRECT_KEY)).toBe('/collection/abc?tab=roles');
  });

  it('never stores another origin as the return path', async () => {
    const auth = buildAuth();
    renderApp({ path: '/login?returnUrl=https%3A%2F%2Fevil.example%2F', auth });
    await waitFor(() => expect(auth.signinRedirect).toHaveBeenCalled());
    expect(window.sessionStorage.getItem(LOGIN_REDIRECT_KEY)).toBe('/');
  });

  it('sends someone already signed in straight to the return path', async () => {
    const auth = buildAuth({ user: buildUser() });
    const { location } = renderApp({ path: '/login?returnUrl=%2Ftokens', auth });
    await waitFor(() => expect(location()).toBe('/tokens'));
    expect(auth.signinRedirect).not.toHaveBeenCalled();
  });

  it("shows 'Sign-in failed' when the provider cannot be reached", async () => {
    const auth = buildAuth({ error: redirectError() });
    renderApp({ path: '/login', auth });
    expect(await screen.findByRole('heading', { name: 'Sign-in failed' })).toBeTruthy();
  });
});

describe('/Home/IdentityResolve', () => {
  it('starts sign-in the same way', async () => {
    const auth = buildAuth();
    renderApp({ path: '/Home/IdentityResolve', auth });
    await waitFor(() => expect(auth.signinRedirect).toHaveBeenCalledTimes(1));
    expect(window.sessionStorage.getItem(LOGIN_REDIRECT_KEY)).toBe('/');
  });
});

describe('/auth/token', () => {
  it('goes to the stored path once signed in, and forgets it', async () => {
    window.sessionStorage.setItem(LOGIN_REDIRECT_KEY, '/collection/abc');
    const { location } = renderApp({ path: '/auth/token?code=c&state=s', auth: buildAuth({ user: buildUser() }) });
    await waitFor(() => expect(location()).toBe('/collection/abc'));
    expect(window.sessionStorage.getItem(LOGIN_REDIRECT_KEY)).toBeNull();
  });

  it('falls back to home without a stored path', async () => {
    const { location } = renderApp({ path: '/auth/token?code=c&state=s', auth: buildAuth({ user: buildUser() }) });
    await waitFor(() => expect(location()).toBe('/'));
  });

  it("shows 'Sign-in failed' when the code exchange fails", async () => {
    renderApp({ path: '/auth/token?code=c&state=s', auth: buildAuth({ error: callbackError() }) });
    expect(await screen.findByRole('heading', { name: 'Sign-in failed' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
  });
});

describe('/logout', () => {
  it('ends the session at the provider with the id token as hint', async () => {
    const auth = buildAuth({ user: buildUser() });
    renderApp({ path: '/logout', auth });
    await waitFor(() => expect(auth.signoutRedirect).toHaveBeenCalledWith({ id_token_hint: 'id-token-1' }));
  });

  it('goes home when nobody is signed in', async () => {
    const auth = buildAuth();
    const { location } = renderApp({ path: '/logout', auth });
    await waitFor(() => expect(location()).toBe('/'));
    expect(auth.signoutRedirect).not.toHaveBeenCalled();
  });

  it("shows 'Sign-out failed' when the provider cannot be reached", async () => {
    const auth = buildAuth({ user: buildUser(), error: signoutError() });
    renderApp({ path: '/logout', auth });
    expect(await screen.findByRole('heading', { name: 'Sign-out failed' })).toBeTruthy();
  });
});

describe('/auth/logout', () => {
  it('clears the local user and goes home', async () => {
    window.sessionStorage.setItem(
      'oidc.user:http://localhost:8080/oidc:datalab-web',
      JSON.stringify({ access_token: 'x' }),
    );
    const { location } = renderApp({ path: '/auth/logout' });
    await waitFor(() => expect(location()).toBe('/'));
    expect(window.sessionStorage.getItem('oidc.user:http://localhost:8080/oidc:datalab-web')).toBeNull();
  });

  it("shows 'Sign-out failed' when the provider reports an error", async () => {
    const { location } = renderApp({ path: '/auth/logout?error=server_error&state=unknown' });
    expect(await screen.findByRole('heading', { name: 'Sign-out failed' })).toBeTruthy();
    expect(location()).toBe('/auth/logout?error=server_error&state=unknown');
  });
});
