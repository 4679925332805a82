import { notificationsStore } from '@mantine/notifications';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { buildAuth, buildCollectionDetail, buildCurrentUser, buildUser } from '../../../test/builders.ts';
import { buildSqlConnection } from '../../../test/data-source-builders.ts';
import { fakeApi } from '../../../test/fake-api.ts';
import { renderApp } from '../../../test/render-app.tsx';

const owner = () => ({ auth: buildAuth({ user: buildUser() }), currentUser: buildCurrentUser({ id: 1 }) });
const base = {
  'GET /api/DataSourceCollection/GetByUid/col-1': { body: buildCollectionDetail({ connectionCount: 1 }) },
  'GET /api/SqlConnection': { body: [buildSqlConnection()] },
  'GET /api/WebApiConnection': { body: [] },
};

describe('connections', () => {
  it("lists a collection's connections with kind and host, each leading an owner to its edit screen", async () => {
    fakeApi(base);
    renderApp({ path: '/collection/col-1/connections', ...owner() });
    const link = await screen.findByRole('link', { name: 'warehouse' });
    expect(link.getAttribute('href')).toBe('/collection/col-1/edit/connection/warehouse');
    const row = link.closest('tr') as HTMLElement;
    expect(within(row).getByText('PostgreSQL')).toBeTruthy();
    expect(within(row).getByText('db.internal:5432 / shop')).toBeTruthy();
  });

  it('keeps the stored password unless a new one is typed, and shows the test result with its warnings', async () => {
    const api = fakeApi({
      ...base,
      'POST /api/SqlConnection/Test': {
        body: { ok: true, serverVersion: 'PostgreSQL 17.2', warnings: ['The account is a superuser'] },
      },
      'PUT /api/SqlConnection/5': { body: buildSqlConnection({ host: 'replica.internal' }) },
    });
    const user = userEvent.setup();
    const { location } = renderApp({ path: '/collection/col-1/edit/connection/warehouse', ...owner() });
    const password = await screen.findByLabelText('Password');
    expect((password as HTMLInputElement).value).toBe('********');

    await user.click(screen.getByRole('button', { name: 'Test connection' }));
    expect(await screen.findByText('Connected: PostgreSQL 17.2')).toBeTruthy();
    expect(screen.getByText('The account is a superuser')).toBeTruthy();
    const tested = api.requests.find((request) => request.path === '/api/SqlConnection/Test');
    expect(tested?.body).toMatchObject({ connectionId: 5, collectionUid: 'col-1', host: 'db.internal' });
    expect(tested?.body).not.toHaveProperty('password');

    const host = screen.getByRole('textbox', { name: 'Host' });
    await user.clear(host);
    await user.type(host, 'replica.internal');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(location()).toBe('/collection/col-1/connections'));
    const saved = api.requests.find((request) => request.method === 'PUT');
    expect(saved?.body).toMatchObject({ host: 'replica.internal', name: 'warehouse' });
    expect(saved?.body).not.toHaveProperty('password');
  });

  it("shows the server's messages under their fields: a refused test's, then a refused save's", async () => {
    const refusal = (message: string) => ({
      status: 400,
      body: { title: 'Validation failed', status: 400, code: 'validation', errors: { host: [message] } },
    });
    fakeApi({
      ...base,
      'POST /api/SqlConnection/Test': refusal('This host is not allowed'),
      'PUT /api/SqlConnection/5': refusal('The host of the metadata store is refused'),
    });
    const user = userEvent.setup();
    renderApp({ path: '/collection/col-1/edit/connection/warehouse', ...owner() });
    const host = await screen.findByRole('textbox', { name: 'Host' });
    await user.click(screen.getByRole('button', { name: 'Test connection' }));
    expect(await screen.findByText('This host is not allowed')).toBeTruthy();
    expect(host.getAttribute('aria-invalid')).toBe('true');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    // Where both name a field, the save's message is the one shown.
    expect(await screen.findByText('The host of the metadata store is refused')).toBeTruthy();
    expect(screen.queryByText('This host is not allowed')).toBeNull();
  });

  it("shows a refused account under the user field, and the administrator's override switch to administrators only", async () => {
    const refusedAccount = 'The database account may do more than read: it is a superuser';
    const api = fakeApi({
      ...base,
      'POST /api/SqlConnection/Test': {
        status: 400,
        body: { title: 'Validation failed', status: 400, code: 'validation', errors: { username: [refusedAccount] } },
      },
      'PUT /api/SqlConnection/5': { body: buildSqlConnection({ allowPrivilegedAccount: true }) },
    });
    const user = userEvent.setup();
    const view = renderApp({ path: '/collection/col-1/edit/connection/warehouse', ...owner() });
    const name = await screen.findByRole('textbox', { name: /^User/ });
    await user.click(screen.getByRole('button', { name: 'Test connection' }));
    expect(await screen.findByText(refusedAccount)).toBeTruthy();
    expect(name.getAttribute('aria-invalid')).toBe('true');
    expect(screen.queryByRole('switch', { name: /more than read/ })).toBeNull();
    view.unmount();

    const admin = { ...owner(), currentUser: buildCurrentUser({ id: 1, permissions: { canManageUsers: true } }) };
    renderApp({ path: '/collection/col-1/edit/connection/warehouse', ...admin });
    const allow = await screen.findByRole('switch', { name: /Allow an account that may do more than read/ });
    expect(screen.getByText(/read the database server's files/)).toBeTruthy();
    await user.click(allow);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.requests.some((request) => request.method === 'PUT')).toBe(true));
    expect(api.requests.find((request) => request.method === 'PUT')?.body).toMatchObject({
      allowPrivilegedAccount: true,
    });
  });

  it('tells an owner who is not an administrator that the account was allowed, and what withdraws it', async () => {
    fakeApi({ ...base, 'GET /api/SqlConnection': { body: [buildSqlConnection({ allowPrivilegedAccount: true })] } });
    renderApp({ path: '/collection/col-1/edit/connection/warehouse', ...owner() });
    expect(await screen.findByText('Account allowed by an administrator')).toBeTruthy();
    expect(screen.getByText(/Changing the kind, host, port, database, user or password/)).toBeTruthy();
    expect(screen.queryByRole('switch', { name: /more than read/ })).toBeNull();
  });

  it('takes a message off its field as the field changes, and does not repeat it in a toast', async () => {
    fakeApi({
      ...base,
      'PUT /api/SqlConnection/5': {
        status: 400,
        body: { title: 'Validation failed', status: 400, code: 'validation', errors: { name: ['Name is required'] } },
      },
    });
    const user = userEvent.setup();
    renderApp({ path: '/collection/col-1/edit/connection/warehouse', ...owner() });
    const name = await screen.findByRole('textbox', { name: 'Name' });
    await user.clear(name);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Name is required')).toBeTruthy();
    expect(name.getAttribute('aria-invalid')).toBe('true');
    expect(notificationsStore.getState().notifications).toEqual([]);

    await user.type(name, 'warehouse');
    expect(screen.queryByText('Name is required')).toBeNull();
    expect(name.getAttribute('aria-invalid')).not.toBe('true');
  });

  it('sends a password only when one is typed', async () => {
    const api = fakeApi({ ...base, 'PUT /api/SqlConnection/5': { body: buildSqlConnection() } });
    const user = userEvent.setup();
    renderApp({ path: '/collection/col-1/edit/connection/warehouse', ...owner() });
    const password = await screen.findByLabelText('Password');
    await user.click(password);
    await user.keyboard('n3w-secret');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.requests.some((request) => request.method === 'PUT')).toBe(true));
    expect(api.requests.find((request) => request.method === 'PUT')?.body).toMatchObject({ password: 'n3w-secret' });
  });

  it('creates a connection from the edit tab: tests the unsaved settings, then opens the new connection', async () => {
    const created = buildSqlConnection({ id: 9, name: 'reporting', host: 'pg.internal', database: 'reports' });
    const api = fakeApi({
      ...base,
      'POST /api/SqlConnection/Test': {
        body: { ok: true, serverVersion: 'PostgreSQL 17.2', warnings: ['The account may write'] },
      },
      'POST /api/SqlConnection': { status: 201, body: created },
    });
    const user = userEvent.setup();
    const { location } = renderApp({ path: '/collection/col-1/edit/connections', ...owner() });
    await user.click(await screen.findByRole('button', { name: 'New connection' }));
    const dialog = await screen.findByRole('dialog', { name: 'New connection' });
    const form = within(dialog);
    expect((form.getByRole('textbox', { name: 'Port' }) as HTMLInputElement).value).toBe('5432');
    await user.type(form.getByRole('textbox', { name: 'Name' }), 'reporting');
    await user.type(form.getByRole('textbox', { name: 'Host' }), 'pg.internal');
    await user.type(form.getByRole('textbox', { name: /^Database/ }), 'reports');
    await user.type(form.getByRole('textbox', { name: 'User' }), 'reader');
    await user.type(form.getByLabelText('Password'), 's3cret');

    await user.click(form.getByRole('button', { name: 'Test connection' }));
    expect(await form.findByText('Connected: PostgreSQL 17.2')).toBeTruthy();
    expect(form.getByText('The account may write')).toBeTruthy();
    const tested = api.requests.find((request) => request.path === '/api/SqlConnection/Test');
    expect(tested?.body).toMatchObject({ collectionUid: 'col-1', kind: 'postgres', port: 5432, password: 's3cret' });
    expect(tested?.body).not.toHaveProperty('connectionId');

    await user.click(form.getByRole('button', { name: 'Create connection' }));
    await waitFor(() => expect(location()).toBe('/collection/col-1/edit/connection/reporting'));
    const saved = api.requests.find((request) => request.method === 'POST' && request.path === '/api/SqlConnection');
    expect(saved?.body).toMatchObject({
      collectionUid: 'col-1',
      name: 'reporting',
      host: 'pg.internal',
      database: 'reports',
      username: 'reader',
      password: 's3cret',
      poolMax: 5,
    });
  });

  it('offers New connection only to owners, and only on the edit tab', async () => {
    fakeApi({
      ...base,
      'GET /api/DataSourceCollection/GetByUid/col-1': {
        body: buildCollectionDetail({
          connectionCount: 1,
          myRole: 'Editor',
          can: { edit: true, manageRoles: false, delete: false, editAssets: true },
        }),
      },
    });
    renderApp({ path: '/collection/col-1/edit/connections', ...owner() });
    expect(await screen.findByText('warehouse')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'New connection' })).toBeNull();
  });

  it('does not offer New connection on the view tab', async () => {
    fakeApi(base);
    renderApp({ path: '/collection/col-1/connections', ...owner() });
    expect(await screen.findByRole('link', { name: 'warehouse' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'New connection' })).toBeNull();
  });

  it("leads an Owner from an empty collection's Connections tab to adding one", async () => {
    fakeApi({
      ...base,
      'GET /api/DataSourceCollection/GetByUid/col-1': { body: buildCollectionDetail({ connectionCount: 0 }) },
      'GET /api/SqlConnection': { body: [] },
    });
    const user = userEvent.setup();
    const { location } = renderApp({ path: '/collection/col-1/connections', ...owner() });
    await user.click(await screen.findByRole('link', { name: 'Add a connection' }));
    await waitFor(() => expect(location()).toBe('/collection/col-1/edit/connections'));
    expect(await screen.findByRole('button', { name: 'New connection' })).toBeTruthy();
  });
});
