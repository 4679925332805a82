import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { buildAuth, buildCurrentUser, buildUser, pageOfItems } from '../../../test/builders.ts';
import { fakeApi } from '../../../test/fake-api.ts';
import { renderApp } from '../../../test/render-app.tsx';

// The home page links only to what works (issue 7 §3): every link in its content opens a real
// screen, never one of the placeholders of screens still to come.

const signedIn = () => ({
  auth: buildAuth({ user: buildUser() }),
  currentUser: buildCurrentUser({ canCreateCollections: true }),
});

describe('the home page', () => {
  it('links only to working screens and says when the others come', async () => {
    fakeApi({ 'GET /api/DataSourceCollection/GetAll': { body: pageOfItems([]) } });
    const view = renderApp({ path: '/', ...signedIn() });
    const main = await screen.findByRole('main');
    await screen.findByRole('heading', { level: 1 });
    const hrefs = within(main)
      .getAllByRole('link')
      .map((link) => link.getAttribute('href') ?? '');
    expect(hrefs.length).toBeGreaterThan(0);
    expect(screen.getByText('Coming with data sources')).toBeTruthy();
    expect(screen.getByText('Coming with access tokens')).toBeTruthy();

    view.unmount();
    for (const href of new Set(hrefs)) {
      if (href.startsWith('/policy/')) continue;
      const next = renderApp({ path: href, ...signedIn() });
      await waitFor(() => expect(screen.queryAllByRole('heading', { level: 1 }).length).toBeGreaterThan(0));
      expect(screen.queryByText('Not available yet'), href).toBeNull();
      next.unmount();
    }
  });
});
