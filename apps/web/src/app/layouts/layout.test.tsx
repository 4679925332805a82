import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { buildAuth, buildCurrentUser, buildUser } from '../../test/builders.ts';
import { fakeApi } from '../../test/fake-api.ts';
import { renderApp } from '../../test/render-app.tsx';
import { setViewportWidth } from '../../test/viewport.ts';

const signedIn = (canManageUsers = false) => ({
  auth: buildAuth({ user: buildUser() }),
  currentUser: buildCurrentUser({ name: 'Ada Lovelace', permissions: { canManageUsers } }),
});

function mainNav() {
  return within(screen.getByRole('navigation', { name: 'Main' }));
}

describe('the navigation bar', () => {
  it('links the product name home and offers Login when signed out', async () => {
    renderApp({ path: '/policy/contact-us' });
    await screen.findByRole('heading', { level: 1, name: 'Contact us' });
    expect(screen.getByRole('link', { name: 'Data Lab' }).getAttribute('href')).toBe('/');
    expect(screen.getByRole('link', { name: 'Login' }).getAttribute('href')).toBe(
      '/login?returnUrl=%2Fpolicy%2Fcontact-us',
    );
    expect(screen.queryByRole('button', { name: /Account menu/ })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Administration' })).toBeNull();
  });

  it('shows Collections, Tokens and My downloads, and Data Assets and Playground only in developer mode', async () => {
    const user = userEvent.setup();
    renderApp({ path: '/', ...signedIn() });
    await screen.findByRole('heading', { name: 'What you can do' });
    expect(
      mainNav()
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual(['Collections', 'Tokens', 'My downloads']);
    expect(mainNav().getByRole('link', { name: 'My downloads' }).getAttribute('href')).toBe('/downloads');

    await user.click(screen.getByRole('switch', { name: 'Developer mode' }));
    expect(
      mainNav()
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual(['Collections', 'Data Assets', 'Tokens', 'My downloads', 'Playground']);
    expect(mainNav().getByRole('link', { name: 'Data Assets' }).getAttribute('href')).toBe('/data-source');
    expect(window.localStorage.getItem('datalab.developerMode')).toBe('true');
  });

  it('offers the Digital Lab to those who may use it, and to nobody else', async () => {
    renderApp({
      path: '/',
      auth: buildAuth({ user: buildUser() }),
      currentUser: buildCurrentUser({ canUseDigitalLab: true }),
    });
    await screen.findByRole('heading', { name: 'What you can do' });
    expect(mainNav().getByRole('link', { name: 'Digital Lab' }).getAttribute('href')).toBe('/digital-lab/tokens');
    cleanup();

    renderApp({ path: '/', ...signedIn() });
    await screen.findByRole('heading', { name: 'What you can do' });
    expect(mainNav().queryByRole('link', { name: 'Digital Lab' })).toBeNull();
  });

  it('starts with a skip link that moves focus to the main content', async () => {
    const user = userEvent.setup();
    renderApp({ path: '/', ...signedIn() });
    await screen.findByRole('heading', { name: 'What you can do' });
    await user.tab();
    const skip = screen.getByRole('link', { name: 'Skip to content' });
    expect(document.activeElement).toBe(skip);
    await user.keyboard('{Enter}');
    expect(document.activeElement).toBe(screen.getByRole('main'));
  });

  it('remembers developer mode across reloads', async () => {
    window.localStorage.setItem('datalab.developerMode', 'true');
    renderApp({ path: '/', ...signedIn() });
    await screen.findByRole('heading', { name: 'What you can do' });
    expect((screen.getByRole('switch', { name: 'Developer mode' }) as HTMLInputElement).checked).toBe(true);
    expect(mainNav().getByRole('link', { name: 'Playground' })).toBeTruthy();
  });

  it("shows the signed-in user's initials in the account menu, with Logout", async () => {
    const user = userEvent.setup();
    renderApp({ path: '/', ...signedIn() });
    const accountMenu = await screen.findByRole('button', { name: /Account menu/ });
    expect(accountMenu.textContent).toBe('ALAccount menu');
    expect(accountMenu.getAttribute('aria-label')).toBeNull();
    await user.click(accountMenu);
    expect((await screen.findByRole('menuitem', { name: 'Logout' })).getAttribute('href')).toBe('/logout');
    expect(screen.queryByRole('link', { name: 'Login' })).toBeNull();
  });

  it('offers the administration menu only to holders of canManageUsers', async () => {
    const user = userEvent.setup();
    renderApp({ path: '/', ...signedIn(true) });
    await user.click(await screen.findByRole('button', { name: 'Administration' }));
    const items = await screen.findAllByRole('menuitem');
    expect(items.map((item) => [item.textContent, item.getAttribute('href')])).toEqual([
      ['User Management', '/management/user'],
      ['User Group Management', '/management/user-groups'],
      ['Cache Management', '/management/cache'],
      ['Log Management', '/management/logs'],
      ['Usage', '/management/usage'],
    ]);
  });

  it('hides the administration menu from everyone else', async () => {
    renderApp({ path: '/', ...signedIn(false) });
    await screen.findByRole('button', { name: /Account menu/ });
    expect(screen.queryByRole('button', { name: 'Administration' })).toBeNull();
  });
});

describe('the footer', () => {
  it('is a landmark of its own, beside the main content, not inside it', async () => {
    renderApp({ path: '/', ...signedIn() });
    await screen.findByRole('heading', { name: 'What you can do' });
    const footer = screen.getByRole('contentinfo');
    expect(screen.getByRole('main').contains(footer)).toBe(false);
    expect(footer.closest('header, main, nav, aside, section, [role]:not([role="contentinfo"])')).toBeNull();
  });

  it('links the policies and carries a copyright line', async () => {
    renderApp({ path: '/policy/contact-us' });
    const footer = within(await screen.findByRole('navigation', { name: 'Policies' }));
    expect(footer.getAllByRole('link').map((link) => [link.textContent, link.getAttribute('href')])).toEqual([
      ['Privacy policy', '/policy/private-policy'],
      ['Terms and conditions', '/policy/terms-and-conditions'],
      ['Cookie policy', '/policy/cookie-policy'],
      ['Accessibility', '/policy/accessibility'],
      ['Contact us', '/policy/contact-us'],
    ]);
    expect(screen.getByText(`© ${new Date().getFullYear()} Data Lab`)).toBeTruthy();
  });
});

describe('the mobile restriction', () => {
  it('replaces every page but home and the policy pages below 768 px, with a way home', async () => {
    setViewportWidth(600);
    renderApp({ path: '/tokens', ...signedIn() });
    expect(await screen.findByText('Mobile mode not supported')).toBeTruthy();
    expect(screen.getByText('Please use a desktop or tablet device')).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Tokens' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Go to home' }).getAttribute('href')).toBe('/');
  });

  it('applies to public pages too, except the policy pages, which stay readable and lead home', async () => {
    setViewportWidth(767);
    renderApp({ path: '/error?errorSummary=Oops&errorMessage=Broken', ...signedIn() });
    expect(await screen.findByText('Mobile mode not supported')).toBeTruthy();
    cleanup();

    renderApp({ path: '/policy/accessibility' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Accessibility statement' })).toBeTruthy();
    expect(screen.queryByText('Mobile mode not supported')).toBeNull();
    expect(screen.getByRole('link', { name: 'Back to Data Lab home' }).getAttribute('href')).toBe('/');
  });

  it('leaves home alone', async () => {
    setViewportWidth(375);
    renderApp({ path: '/', ...signedIn() });
    expect(await screen.findByRole('heading', { name: 'What you can do' })).toBeTruthy();
    expect(screen.queryByText('Mobile mode not supported')).toBeNull();
  });

  it('is lifted by developer mode', async () => {
    setViewportWidth(600);
    window.localStorage.setItem('datalab.developerMode', 'true');
    renderApp({ path: '/tokens', ...signedIn() });
    expect(await screen.findByRole('heading', { level: 1, name: 'Tokens' })).toBeTruthy();
    expect(screen.queryByText('Mobile mode not supported')).toBeNull();
  });

  it('does not apply from 768 px, and follows the window as it is resized', async () => {
    setViewportWidth(768);
    renderApp({ path: '/tokens', ...signedIn() });
    expect(await screen.findByRole('heading', { level: 1, name: 'Tokens' })).toBeTruthy();
    act(() => setViewportWidth(700));
    expect(await screen.findByText('Mobile mode not supported')).toBeTruthy();
  });

  it('hides a page it had shown without losing what was typed, and shows it again once the window is wide', async () => {
    fakeApi({});
    setViewportWidth(1280);
    const user = userEvent.setup();
    renderApp({
      path: '/collection/create',
      auth: buildAuth({ user: buildUser() }),
      currentUser: buildCurrentUser({ canCreateCollections: true }),
    });
    await user.type(await screen.findByRole('textbox', { name: 'Name' }), 'Half-typed');
    act(() => setViewportWidth(700));
    expect(await screen.findByText('Mobile mode not supported')).toBeTruthy();
    expect(screen.queryByRole('textbox', { name: 'Name' })).toBeNull();
    act(() => setViewportWidth(1024));
    await waitFor(() => expect(screen.queryByText('Mobile mode not supported')).toBeNull());
    expect(screen.getByRole('textbox', { name: 'Name' })).toHaveProperty('value', 'Half-typed');
  });

  it('applies to the Digital Lab as well', async () => {
    setViewportWidth(500);
    renderApp({ path: '/digital-lab/tokens', ...signedIn() });
    expect(await screen.findByText('Mobile mode not supported')).toBeTruthy();
  });
});
