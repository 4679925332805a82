import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { buildAuth, buildCollectionDetail, buildCurrentUser, buildUser, pageOfItems } from '../../test/builders.ts';
import { fakeApi } from '../../test/fake-api.ts';
import { renderApp } from '../../test/render-app.tsx';

// Leaving a form with unsaved changes asks first: links, tabs and the browser's Back go
// through the router's blocker; closing or reloading the tab through the browser's own question.

const signedIn = () => ({
  auth: buildAuth({ user: buildUser() }),
  currentUser: buildCurrentUser({ id: 1, canCreateCollections: true }),
});

function unloadIsStopped(): boolean {
  const event = new Event('beforeunload', { cancelable: true });
  window.dispatchEvent(event);
  return event.defaultPrevented;
}

describe('a form with unsaved changes', () => {
  it('asks before a link leaves it, stays on Stay, leaves on Leave', async () => {
    fakeApi({});
    const user = userEvent.setup();
    const { location } = renderApp({ path: '/collection/create', ...signedIn() });
    await user.type(await screen.findByRole('textbox', { name: 'Name' }), 'Half-typed');
    expect(unloadIsStopped()).toBe(true);

    await user.click(screen.getByRole('banner').querySelector('a[href="/tokens"]') as HTMLElement);
    let dialog = await screen.findByRole('dialog', { name: 'Leave without saving?' });
    await user.click(within(dialog).getByRole('button', { name: 'Stay on this page' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(location()).toBe('/collection/create');
    expect(screen.getByRole('textbox', { name: 'Name' })).toHaveProperty('value', 'Half-typed');

    await user.click(screen.getByRole('banner').querySelector('a[href="/tokens"]') as HTMLElement);
    dialog = await screen.findByRole('dialog', { name: 'Leave without saving?' });
    await user.click(within(dialog).getByRole('button', { name: 'Leave and lose changes' }));
    await waitFor(() => expect(location()).toBe('/tokens'));
  });

  it("asks before the browser's Back leaves it", async () => {
    fakeApi({ 'GET /api/DataSourceCollection/GetAll': { body: pageOfItems([]) } });
    const user = userEvent.setup();
    const { location, router } = renderApp({ path: '/collection', ...signedIn() });
    await act(() => router.navigate('/collection/create'));
    await user.type(await screen.findByRole('textbox', { name: 'Name' }), 'Draft');
    await act(() => router.navigate(-1));
    const dialog = await screen.findByRole('dialog', { name: 'Leave without saving?' });
    expect(location()).toBe('/collection/create');
    await user.click(within(dialog).getByRole('button', { name: 'Leave and lose changes' }));
    await waitFor(() => expect(location()).toBe('/collection'));
  });

  it('asks before a tab switch on the edit screen, and not once the change is undone', async () => {
    fakeApi({ 'GET /api/DataSourceCollection/GetByUid/col-1': { body: buildCollectionDetail() } });
    const user = userEvent.setup();
    const { location } = renderApp({ path: '/collection/col-1/edit', ...signedIn() });
    const name = await screen.findByRole('textbox', { name: 'Name' });
    await user.type(name, ' 2');
    await user.click(screen.getByRole('tab', { name: /Access/ }));
    expect(await screen.findByRole('dialog', { name: 'Leave without saving?' })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Stay on this page' }));
    expect(location()).toBe('/collection/col-1/edit');

    await user.type(name, '{Backspace}{Backspace}');
    expect(unloadIsStopped()).toBe(false);
    await user.click(screen.getByRole('tab', { name: /Access/ }));
    await waitFor(() => expect(location()).toBe('/collection/col-1/edit/access'));
  });

  it('does not ask when the form is saved and moves on', async () => {
    fakeApi({
      'POST /api/DataSourceCollection': { status: 201, body: buildCollectionDetail({ uid: 'col-9', name: 'Fresh' }) },
    });
    const user = userEvent.setup();
    const { location } = renderApp({ path: '/collection/create', ...signedIn() });
    await user.type(await screen.findByRole('textbox', { name: 'Name' }), 'Fresh');
    await user.click(screen.getByRole('button', { name: 'Create collection' }));
    await waitFor(() => expect(location()).toBe('/collection/col-9'));
    expect(screen.queryByRole('dialog', { name: 'Leave without saving?' })).toBeNull();
  });

  it('does not ask when Cancel is pressed', async () => {
    fakeApi({});
    const user = userEvent.setup();
    const { location } = renderApp({ path: '/collection/create', ...signedIn() });
    await user.type(await screen.findByRole('textbox', { name: 'Name' }), 'Never mind');
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(location()).toBe('/collection'));
    expect(screen.queryByRole('dialog', { name: 'Leave without saving?' })).toBeNull();
  });
});
