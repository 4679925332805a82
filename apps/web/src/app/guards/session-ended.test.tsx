import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { texts } from '@datalab/contract/texts';
import { takeLoginRedirect } from '../../lib/auth/login-redirect.ts';
import { buildAuth, buildCurrentUser, buildUser, pageOfItems } from '../../test/builders.ts';
import { fakeApi } from '../../test/fake-api.ts';
import { renderApp } from '../../test/render-app.tsx';
import { toastMessages } from '../../test/render-ui.tsx';

// A rejected or expired session: a 401 from the API, or a failed silent renew, shows
// "Sign in again" (which signs in and comes back here), not a stale avatar and a dead end.

const signedIn = () => ({ auth: buildAuth({ user: buildUser() }), currentUser: buildCurrentUser({ id: 1 }) });

describe('an ended session', () => {
  it('after a 401 from the API: says so, drops the avatar, and "Sign in again" returns to this page', async () => {
    fakeApi({
      'GET /api/DataSourceCollection/GetAll': { status: 401, body: { title: 'Unauthenticated', status: 401 } },
    });
    const session = signedIn();
    // As the real one does: the stored user is gone, so /login starts a sign-in instead of coming back.
    session.auth.removeUser = vi.fn(async () => {
      session.auth.user = null;
    });
    const user = userEvent.setup();
    const { location } = renderApp({ path: '/collection?search=sales', ...session });

    expect(await screen.findByRole('heading', { level: 1, name: 'Your session has ended' })).toBeTruthy();
    expect(toastMessages()).toContain(texts.unauthenticatedToast);
    const header = screen.getByRole('banner');
    expect(within(header).queryByRole('button', { name: /Account menu/ })).toBeNull();
    expect(within(header).getByRole('button', { name: 'Sign in again' })).toBeTruthy();

    await user.click(within(screen.getByRole('main')).getByRole('button', { name: 'Sign in again' }));
    await waitFor(() => expect(session.auth.signinRedirect).toHaveBeenCalled());
    expect(location()).toBe('/login?returnUrl=%2Fcollection%3Fsearch%3Dsales');
    expect(takeLoginRedirect()).toBe('/collection?search=sales');
  });

  it('after a failed silent renew, even before any call fails', async () => {
    fakeApi({ 'GET /api/DataSourceCollection/GetAll': { body: pageOfItems([]) } });
    const session = signedIn();
    renderApp({ path: '/collection', ...session });
    expect(await screen.findByRole('heading', { level: 1, name: 'Collections' })).toBeTruthy();
    expect(screen.getByRole('button', { name: /Account menu/ })).toBeTruthy();

    await act(async () => {
      await session.auth.events._raiseSilentRenewError(new Error('invalid_grant'));
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Your session has ended' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Account menu/ })).toBeNull();
  });
});
