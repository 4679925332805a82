import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { CurrentUser } from '@datalab/contract/api/account';
import { buildAuth, buildCurrentUser, buildUser, pageOfItems } from '../../../test/builders.ts';
import { fakeApi } from '../../../test/fake-api.ts';
import { renderApp } from '../../../test/render-app.tsx';

// The home page says what the signed-in user can do now, and every link in it opens a real screen for them.

const as = (overrides: Partial<CurrentUser>) => ({
  auth: buildAuth({ user: buildUser() }),
  currentUser: buildCurrentUser(overrides),
});

async function homeLinks(overrides: Partial<CurrentUser>) {
  const view = renderApp({ path: '/', ...as(overrides) });
  await screen.findByRole('heading', { name: 'What you can do' });
  const section = within(screen.getByRole('region', { name: 'What you can do' }));
  const links = section.getAllByRole('link').map((link) => [link.textContent, link.getAttribute('href') ?? '']);
  view.unmount();
  return links;
}

describe('the home page', () => {
  it('offers a reader what they can do now, and nothing that is "coming"', async () => {
    const links = await homeLinks({});
    expect(links).toEqual([
      ['Go to collections', '/collection'],
      ['All data assets', '/data-source'],
      ['Your tokens', '/tokens'],
      ['New personal access token', '/tokens/createPAT'],
      ['My downloads', '/downloads'],
    ]);
    renderApp({ path: '/', ...as({}) });
    await screen.findByRole('heading', { name: 'What you can do' });
    expect(screen.queryByText(/coming/i)).toBeNull();
  });

  it('adds creating a collection, the Digital Lab and administration for those who may', async () => {
    const links = await homeLinks({
      canCreateCollections: true,
      canUseDigitalLab: true,
      permissions: { canManageUsers: true },
    });
    expect(links).toEqual(
      expect.arrayContaining([
        ['New collection', '/collection/create'],
        ['Open the Digital Lab', '/digital-lab/tokens'],
        ['Users', '/management/user'],
        ['Application log', '/management/logs'],
      ]),
    );
  });

  it('links only to screens that open for the user', async () => {
    fakeApi({ 'GET /api/DataSourceCollection/GetAll': { body: pageOfItems([]) } });
    const user = { canCreateCollections: true };
    for (const [, href] of await homeLinks(user)) {
      const next = renderApp({ path: href, ...as(user) });
      await waitFor(() => expect(screen.queryAllByRole('heading', { level: 1 }).length).toBeGreaterThan(0));
      expect(screen.queryByText('The requested resource was not found'), href).toBeNull();
      expect(screen.queryByText('Unauthorised'), href).toBeNull();
      next.unmount();
    }
  });
});
