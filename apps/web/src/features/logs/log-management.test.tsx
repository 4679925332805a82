import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { buildAuth, buildCurrentUser, buildUser, pageOfItems } from '../../test/builders.ts';
import { fakeApi, type FakeRequest } from '../../test/fake-api.ts';
import { renderApp } from '../../test/render-app.tsx';

// The log screen through the app's router with a fake API: filters go to the URL and the server, a record's
// drawer shows an audit's change in words, and its request id shows that request's records.

const admin = () => ({
  auth: buildAuth({ user: buildUser() }),
  currentUser: buildCurrentUser({ id: 1, permissions: { canManageUsers: true } }),
});

const item = {
  id: 41,
  createdAt: '2026-11-23T10:00:00.000Z',
  level: 'info',
  category: 'audit',
  message: 'update collection Sales',
  messageTruncated: false,
  requestId: 'req-abc-123456',
  user: { id: 1, name: 'Ada Admin', username: 'ada' },
};
const other = { ...item, id: 40, level: 'error', category: 'request', message: 'boom', requestId: 'req-zzz-999999' };

function logApi() {
  return fakeApi({
    'GET /api/ApplicationLog/GetApplicationLogs': (request: FakeRequest) => ({
      body: {
        ...pageOfItems(request.query.get('requestId') === 'req-abc-123456' ? [item] : [item, other], { pageSize: 50 }),
        isCountCapped: false,
      },
    }),
    'GET /api/ApplicationLog/41': {
      body: {
        ...item,
        details: {
          actor: { id: 1, name: 'Ada Admin', username: 'ada' },
          action: 'update',
          target: { type: 'collection', id: 3, name: 'Sales' },
          before: { name: 'Sales', description: 'EU' },
          after: { name: 'Sales EU', description: 'EU' },
        },
      },
    },
  });
}

const listQueries = (requests: FakeRequest[]) =>
  requests.filter((r) => r.path === '/api/ApplicationLog/GetApplicationLogs').map((r) => r.query);

describe('log management', () => {
  it('sends the URL filters and a changed level to the server, newest first as it answers', async () => {
    const api = logApi();
    const user = userEvent.setup();
    renderApp({ path: '/management/logs?category=audit&search=sales', ...admin() });

    const table = await screen.findByRole('table', { name: 'Application log' });
    expect(within(table).getAllByRole('row')).toHaveLength(3);
    expect(listQueries(api.requests)[0]?.get('category')).toBe('audit');
    expect(listQueries(api.requests)[0]?.get('search')).toBe('sales');

    await user.selectOptions(screen.getByRole('combobox', { name: 'Level' }), 'warn');
    await waitFor(() => expect(listQueries(api.requests).at(-1)?.get('level')).toBe('warn'));
    expect(listQueries(api.requests).at(-1)?.get('category')).toBe('audit');
  });

  it("opens a record's drawer with the change before and after, and its request id filters the list", async () => {
    const api = logApi();
    const user = userEvent.setup();
    renderApp({ path: '/management/logs', ...admin() });

    await user.click(await screen.findByRole('button', { name: 'update collection Sales' }));
    const drawer = await screen.findByRole('dialog', { name: 'Log record' });
    const diff = await within(drawer).findByRole('table', { name: 'Values before and after' });
    const changed = within(diff).getByRole('row', { name: /^name/ });
    expect(
      within(changed)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['name', 'Sales', 'Sales EU', 'Changed']);
    expect(within(diff).getByRole('row', { name: /^description/ }).textContent).toContain('Unchanged');
    expect(within(drawer).getByText('collection Sales')).toBeTruthy();

    await user.click(within(drawer).getByRole('link', { name: 'req-abc-123456' }));
    await waitFor(() => expect(listQueries(api.requests).at(-1)?.get('requestId')).toBe('req-abc-123456'));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Log record' })).toBeNull());
    await waitFor(() =>
      expect(within(screen.getByRole('table', { name: 'Application log' })).getAllByRole('row')).toHaveLength(2),
    );
    expect(screen.getByRole('textbox', { name: 'Request id' })).toHaveProperty('value', 'req-abc-123456');
  });
});
