import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { messages } from '@datalab/contract/messages';
import { buildAuth, buildCurrentUser, buildUser, buildUserGroupDetail, buildUserListItem, pageOfItems } from '../../../test/builders.ts';
import { fakeApi } from '../../../test/fake-api.ts';
import { renderApp } from '../../../test/render-app.tsx';
import { toastMessages } from '../../../test/render-ui.tsx';

const admin = () => ({ auth: buildAuth({ user: buildUser() }), currentUser: buildCurrentUser({ id: 1, permissions: { canManageUsers: true } }) });
const lastAdministrator = messages.atLeastOne('user with canManageUsers');

describe('user management', () => {
  it('switches user management at once and puts the switch back when the server refuses', async () => {
    let refuse: (() => void) | undefined;
    const grace = buildUserListItem({ id: 2, name: 'Grace Hopper', permissions: { canManageUsers: true } });
    const api = fakeApi({ 'GET /api/User': { body: pageOfItems([grace]) } });
    // The PUT answers only when the test says so, to see the switch before the server's word.
    api.fetchMock.mockImplementation(async (input, init) => {
      if (init?.method === 'PUT') {
        await new Promise<void>((resolve) => (refuse = resolve));
        return Response.json({ title: lastAdministrator, status: 400, errors: { canManageUsers: [lastAdministrator] } }, { status: 400 });
      }
      return Response.json(String(input).startsWith('/api/User?') ? pageOfItems([grace]) : {}, { status: 200 });
    });
    const user = userEvent.setup();
    renderApp({ path: '/management/user', ...admin() });

    const toggle = await screen.findByRole('switch', { name: 'User management for Grace Hopper' });
    expect(toggle).toHaveProperty('checked', true);
    await user.click(toggle);
    await waitFor(() => expect(screen.getByRole('switch', { name: 'User management for Grace Hopper' })).toHaveProperty('checked', false));

    refuse?.();
    await waitFor(() => expect(screen.getByRole('switch', { name: 'User management for Grace Hopper' })).toHaveProperty('checked', true));
    expect(toastMessages()).toContain(`canManageUsers: ${lastAdministrator}`);
    const put = api.fetchMock.mock.calls.find(([, init]) => init?.method === 'PUT');
    expect(String(put?.[0])).toBe('/api/User/2/SystemPermissions');
    expect(JSON.parse(String(put?.[1]?.body))).toEqual({ canManageUsers: false });
  });

  it("opens a user's details with their groups and where each role comes from", async () => {
    const alan = buildUserListItem({ id: 3, name: 'Alan Analyst', groups: [{ id: 7, name: 'Analysts' }] });
    fakeApi({
      'GET /api/User': { body: pageOfItems([alan]) },
      'GET /api/DataRole/3/UserDataRoles': {
        body: {
          user: { id: 3, name: 'Alan Analyst', username: 'analyst' },
          roles: [
            {
              collection: { uid: 'col-1', name: 'Sales' },
              role: 'Editor',
              directRole: null,
              viaGroups: [
                { id: 7, name: 'Analysts', role: 'Editor' },
                { id: 8, name: 'Staff', role: 'Reader' },
              ],
            },
          ],
        },
      },
    });
    const user = userEvent.setup();
    renderApp({ path: '/management/user', ...admin() });
    await user.click(await screen.findByRole('button', { name: 'Details of Alan Analyst' }));
    const drawer = await screen.findByRole('dialog');
    const roles = await within(drawer).findByRole('table', { name: 'Effective roles' });
    expect(within(roles).getByRole('link', { name: 'Sales' }).getAttribute('href')).toBe('/collection/col-1/access');
    expect(within(roles).getByText('Group Analysts: Editor')).toBeTruthy();
    expect(within(roles).getByText('Group Staff: Reader')).toBeTruthy();
    expect(within(drawer).getByRole('link', { name: 'Analysts' }).getAttribute('href')).toBe('/management/user-group/7/members');
  });
});

describe('a user group', () => {
  const group = buildUserGroupDetail({ id: 12, name: 'Analysts', parents: [{ id: 3, name: 'Staff' }] });

  it('opens the tab the URL names, and shows why a nesting was refused', async () => {
    const detail = 'Staff already contains Analysts: nesting it there would make a cycle.';
    fakeApi({
      'GET /api/UserGroup/12': { body: group },
      'GET /api/UserGroup/12/UserGroups': { body: [] },
      'GET /api/UserGroup/Autocomplete': { body: [{ id: 3, name: 'Staff' }] },
      'POST /api/UserGroup/12/UserGroup/3': {
        status: 400,
        body: { title: messages.maxDepthReached, status: 400, detail, errors: { childId: [messages.maxDepthReached] } },
      },
    });
    const user = userEvent.setup();
    const { location } = renderApp({ path: '/management/user-group/12/groups', ...admin() });
    expect(await screen.findByText('No nested groups')).toBeTruthy();
    expect(screen.getAllByRole('tab').find((tab) => tab.getAttribute('aria-selected') === 'true')?.textContent).toContain('Child groups');

    await user.click(screen.getByRole('combobox', { name: 'Nest a group in this one' }));
    await user.click(await screen.findByRole('option', { name: 'Staff' }));
    await user.click(screen.getByRole('button', { name: 'Add group' }));
    expect(await screen.findByText(`Max depth reached: ${detail}`)).toBeTruthy();
    expect(toastMessages()).toContain('childId: Max depth reached');

    await user.click(screen.getByRole('tab', { name: /Hierarchy/ }));
    await waitFor(() => expect(location()).toBe('/management/user-group/12/hierarchy'));
  });

  it('draws the groups above and below it', async () => {
    fakeApi({
      'GET /api/UserGroup/12': { body: group },
      'GET /api/UserGroup/12/Hierarchy': {
        body: {
          group: { id: 12, name: 'Analysts' },
          ancestors: [{ id: 3, name: 'Staff', children: [{ id: 1, name: 'Company', children: [] }] }],
          descendants: [{ id: 20, name: 'Team A', children: [{ id: 21, name: 'Team A1', children: [] }] }],
        },
      },
    });
    renderApp({ path: '/management/user-group/12/hierarchy', ...admin() });
    const below = await screen.findByRole('navigation', { name: 'Groups below' });
    expect(within(below).getByRole('link', { name: 'Team A1' }).getAttribute('href')).toBe('/management/user-group/21/hierarchy');
    const above = screen.getByRole('navigation', { name: 'Groups above' });
    expect(above.textContent).toBe('Company›Staff›Analysts');
  });

  it('creates a group and opens its members', async () => {
    fakeApi({
      'POST /api/UserGroup': { status: 201, body: buildUserGroupDetail({ id: 40, name: 'Finance' }) },
      'GET /api/UserGroup/40': { body: buildUserGroupDetail({ id: 40, name: 'Finance' }) },
      'GET /api/UserGroup/40/Users': { body: [] },
    });
    const user = userEvent.setup();
    const { location } = renderApp({ path: '/management/user-group/create', ...admin() });
    await user.type(await screen.findByRole('textbox', { name: 'Name' }), 'Finance');
    await user.click(screen.getByRole('button', { name: 'Create group' }));
    await waitFor(() => expect(location()).toBe('/management/user-group/40/members'));
    expect(await screen.findByText('No members yet')).toBeTruthy();
  });
});
