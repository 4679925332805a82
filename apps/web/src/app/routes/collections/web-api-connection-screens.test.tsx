import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { buildAuth, buildCollectionDetail, buildCurrentUser, buildUser } from '../../../test/builders.ts';
import { buildSqlConnection } from '../../../test/data-source-builders.ts';
import { fakeApi, type FakeRequest } from '../../../test/fake-api.ts';
import { renderApp } from '../../../test/render-app.tsx';
import { buildApiKeyCredential, buildExchange, buildWebApiConnection } from '../../../test/web-api-builders.ts';

// The Web API connection screens: listed beside SQL connections, edited with default headers, allowed internal hosts
// (shown; changed only by an administrator who owns the collection) and credentials whose secrets stay masked and
// are sent only when typed; tested with the exchange shown.

const owner = (canManageUsers = false) => ({
  auth: buildAuth({ user: buildUser() }),
  currentUser: buildCurrentUser({ id: 1, permissions: { canManageUsers } }),
});
const base = {
  'GET /api/DataSourceCollection/GetByUid/col-1': { body: buildCollectionDetail({ connectionCount: 2 }) },
  'GET /api/SqlConnection': { body: [buildSqlConnection()] },
  'GET /api/WebApiConnection': { body: [buildWebApiConnection()] },
};
const testReply = {
  ok: true,
  status: 200,
  serverVersion: 'HTTP 200 (demo)',
  warnings: [],
  error: null,
  exchanges: [buildExchange({ kind: 'test', url: 'https://api.example.test/v1' })],
  exchangesOmitted: 0,
};
const bodyOf = (requests: FakeRequest[], method: string, path: string) =>
  requests.find((request) => request.method === method && request.path === path)?.body;

describe('Web API connections', () => {
  it('are listed beside SQL connections with their base URL and credentials', async () => {
    fakeApi(base);
    renderApp({ path: '/collection/col-1/connections', ...owner() });
    const link = await screen.findByRole('link', { name: 'countries' });
    expect(link.getAttribute('href')).toBe('/collection/col-1/edit/connection/countries');
    const row = link.closest('tr') as HTMLElement;
    expect(within(row).getByText('Web API')).toBeTruthy();
    expect(within(row).getByText('https://api.example.test/v1')).toBeTruthy();
    expect(within(row).getByText('demo key')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'warehouse' })).toBeTruthy();
  });

  it('shows the allowed hosts to an Owner who is not an administrator, and saves without touching them', async () => {
    const connection = buildWebApiConnection({ allowedHosts: ['127.0.0.1:8080'] });
    const api = fakeApi({
      ...base,
      'GET /api/WebApiConnection': { body: [connection] },
      'POST /api/WebApiConnection/Test': { body: testReply },
      'PUT /api/WebApiConnection/7': { body: connection },
    });
    const user = userEvent.setup();
    const { location } = renderApp({ path: '/collection/col-1/edit/connection/countries', ...owner() });
    expect(await screen.findByRole('heading', { level: 1, name: 'Connection countries' })).toBeTruthy();
    expect(screen.getByText('127.0.0.1:8080')).toBeTruthy();
    expect(screen.getByRole('combobox', { name: 'Allowed internal hosts' }).hasAttribute('disabled')).toBe(true);

    await user.click(screen.getByRole('button', { name: 'Test connection' }));
    expect(await screen.findByText('Reached: HTTP 200 (demo)')).toBeTruthy();
    expect(screen.getByText(/GET https:\/\/api\.example\.test\/v1$/u)).toBeTruthy();
    expect(bodyOf(api.requests, 'POST', '/api/WebApiConnection/Test')).toMatchObject({
      connectionId: 7,
      collectionUid: 'col-1',
      baseUrl: 'https://api.example.test/v1',
    });

    await user.click(screen.getByRole('button', { name: 'Add header' }));
    await user.type(screen.getByRole('textbox', { name: 'Name of header 2' }), 'X-Tenant');
    await user.type(screen.getByRole('textbox', { name: 'Value of header 2' }), 'acme');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(location()).toBe('/collection/col-1/connections'));
    const saved = bodyOf(api.requests, 'PUT', '/api/WebApiConnection/7');
    expect(saved).toMatchObject({
      headers: { Accept: 'application/json', 'X-Tenant': 'acme' },
      maxReplyBytes: 16777216,
    });
    expect(saved).not.toHaveProperty('allowedHosts');
  });

  it('lets an administrator who owns the collection change the allowed hosts, sending the new list', async () => {
    const connection = buildWebApiConnection({ canChangeAllowedHosts: true });
    const api = fakeApi({
      ...base,
      'GET /api/WebApiConnection': { body: [connection] },
      'PUT /api/WebApiConnection/7': { body: connection },
    });
    const user = userEvent.setup();
    renderApp({ path: '/collection/col-1/edit/connection/countries', ...owner(true) });
    const hosts = await screen.findByRole('combobox', { name: 'Allowed internal hosts' });
    await user.type(hosts, 'api.internal:8443{Enter}');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(bodyOf(api.requests, 'PUT', '/api/WebApiConnection/7')).toBeDefined());
    expect(bodyOf(api.requests, 'PUT', '/api/WebApiConnection/7')).toMatchObject({
      allowedHosts: ['api.internal:8443'],
    });
  });

  it('adds a credential with its secret, and changes one without sending the masked secret back', async () => {
    const created = { ...buildApiKeyCredential({ id: 32, name: 'partner token' }), kind: 'bearer', settings: {} };
    const api = fakeApi({
      ...base,
      'POST /api/WebApiDataSource/Credentials': { status: 201, body: created },
      'PUT /api/WebApiDataSource/Credentials': { body: buildApiKeyCredential() },
    });
    const user = userEvent.setup();
    renderApp({ path: '/collection/col-1/edit/connection/countries', ...owner() });
    const credentials = await screen.findByRole('region', { name: 'Credentials' });
    expect(within(credentials).getByText('Header X-Api-Key')).toBeTruthy();
    expect(within(credentials).getByText('********')).toBeTruthy();

    await user.click(within(credentials).getByRole('button', { name: 'Add credential' }));
    let dialog = await screen.findByRole('dialog', { name: 'Add credential' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'partner token');
    await user.click(within(dialog).getByRole('combobox', { name: 'Kind' }));
    await user.click(await screen.findByRole('option', { name: 'Bearer token' }));
    await user.type(within(dialog).getByLabelText(/^Token/u), 's3cret-token');
    await user.click(within(dialog).getByRole('button', { name: 'Add credential' }));
    await waitFor(() => expect(bodyOf(api.requests, 'POST', '/api/WebApiDataSource/Credentials')).toBeDefined());
    expect(bodyOf(api.requests, 'POST', '/api/WebApiDataSource/Credentials')).toEqual({
      connectionId: 7,
      name: 'partner token',
      kind: 'bearer',
      settings: {},
      secret: 's3cret-token',
    });

    await user.click(within(credentials).getByRole('button', { name: 'Change demo key' }));
    dialog = await screen.findByRole('dialog', { name: 'Change demo key' });
    expect((within(dialog).getByLabelText(/^Key value/u) as HTMLInputElement).value).toBe('********');
    const keyName = within(dialog).getByRole('textbox', { name: 'Header name' });
    await user.clear(keyName);
    await user.type(keyName, 'X-Key');
    await user.click(within(dialog).getByRole('button', { name: 'Save credential' }));
    await waitFor(() => expect(bodyOf(api.requests, 'PUT', '/api/WebApiDataSource/Credentials')).toBeDefined());
    const changed = bodyOf(api.requests, 'PUT', '/api/WebApiDataSource/Credentials');
    expect(changed).toMatchObject({ id: 31, kind: 'api-key', settings: { in: 'header', name: 'X-Key' } });
    expect(changed).not.toHaveProperty('secret');
  });

  it('tests a credential and shows the exchange with its secret masked', async () => {
    fakeApi({
      ...base,
      'POST /api/WebApiConnection/7/Credentials/31': {
        body: { ...testReply, warnings: ['The web API refused the credential (401)'], status: 401 },
      },
    });
    const user = userEvent.setup();
    renderApp({ path: '/collection/col-1/edit/connection/countries', ...owner() });
    await user.click(await screen.findByRole('button', { name: 'Test demo key' }));
    expect(await screen.findByText('The web API refused the credential (401)')).toBeTruthy();
    expect(screen.getByText(/X-Api-Key: \*{8}/u)).toBeTruthy();
  });

  it('creates a Web API connection from the edit tab, tested first, then opens it', async () => {
    const created = buildWebApiConnection({ id: 9, name: 'rates', credentials: [] });
    const api = fakeApi({
      ...base,
      'POST /api/WebApiConnection/Test': { body: testReply },
      'POST /api/WebApiConnection': { status: 201, body: created },
    });
    const user = userEvent.setup();
    const { location } = renderApp({ path: '/collection/col-1/edit/connections', ...owner() });
    await user.click(await screen.findByRole('button', { name: 'New connection' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'New connection' }));
    await user.click(dialog.getByText('Web API'));
    await user.type(dialog.getByRole('textbox', { name: 'Name' }), 'rates');
    const baseUrl = dialog.getByRole('textbox', { name: /^Base URL/u });
    await user.clear(baseUrl);
    await user.type(baseUrl, 'https://rates.example.test/api');
    await user.click(dialog.getByRole('button', { name: 'Test connection' }));
    expect(await dialog.findByText('Reached: HTTP 200 (demo)')).toBeTruthy();
    const tested = bodyOf(api.requests, 'POST', '/api/WebApiConnection/Test');
    expect(tested).toMatchObject({ collectionUid: 'col-1', baseUrl: 'https://rates.example.test/api' });
    expect(tested).not.toHaveProperty('connectionId');

    await user.click(dialog.getByRole('button', { name: 'Create connection' }));
    await waitFor(() => expect(location()).toBe('/collection/col-1/edit/connection/rates'));
    const saved = bodyOf(api.requests, 'POST', '/api/WebApiConnection');
    expect(saved).toMatchObject({ collectionUid: 'col-1', name: 'rates', baseUrl: 'https://rates.example.test/api' });
    expect(saved).not.toHaveProperty('allowedHosts');
  });
});
