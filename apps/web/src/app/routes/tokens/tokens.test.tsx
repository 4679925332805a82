import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import type { token as tokenSchema } from '@datalab/contract/api/tokens';
import { utcDateIn } from '../../../features/tokens/model/expiry.ts';
import {
  buildAuth,
  buildCollectionDetail,
  buildCurrentUser,
  buildEffectiveRole,
  buildUser,
  buildUserDataRoles,
  pageOfItems,
} from '../../../test/builders.ts';
import { buildDataSourceDetail } from '../../../test/data-source-builders.ts';
import { fakeApi, type FakeRequest } from '../../../test/fake-api.ts';
import { renderApp } from '../../../test/render-app.tsx';

// The token screens through the real routes against a fake API: creating a personal access token (its roles at
// most the user's own, its secret shown once), the list with its statuses and a revoke that asks first, and the
// snippets of a data asset (only its configured tools, a pasted token put in place of the placeholder).

const SECRET = 'dlp_0123456789abcdefghijABCDEFGHIJ0123456789abcdef';
const me = () => ({ auth: buildAuth({ user: buildUser() }), currentUser: buildCurrentUser({ id: 1 }) });

function buildToken(overrides: Partial<z.input<typeof tokenSchema>> = {}): z.input<typeof tokenSchema> {
  return {
    id: 5,
    kind: 'personal',
    name: 'Nightly export',
    hint: 'dlp_012345…',
    owner: { id: 1, name: 'Ada Lovelace', username: 'ada' },
    collection: null,
    roles: [{ collection: { uid: 'col-1', name: 'Sales' }, role: 'Reader' }],
    createdBy: { id: 1, name: 'Ada Lovelace', username: 'ada' },
    createdAt: '2026-11-01T10:00:00.000Z',
    expiresAt: '2026-12-01T00:00:00.000Z',
    revokedAt: null,
    revokedBy: null,
    lastUsedAt: null,
    lastUsedAddress: null,
    status: 'Active',
    ...overrides,
  };
}

const myRoles = buildUserDataRoles({
  roles: [
    buildEffectiveRole({ directRole: 'Reader' }),
    buildEffectiveRole({ collection: { uid: 'col-2', name: 'Operations' }, role: 'Owner', directRole: 'Owner' }),
  ],
});

const optionsOf = (name: string) =>
  within(screen.getByRole('combobox', { name }))
    .getAllByRole('option')
    .map((option) => option.textContent);

describe('creating a personal access token', () => {
  it('offers roles up to the user’s own, sends the choice and shows the secret once', async () => {
    const api = fakeApi({
      'GET /api/DataRole/1/UserDataRoles': { body: myRoles },
      'POST /api/Token': (request: FakeRequest) => ({
        status: 201,
        body: { ...buildToken({ name: (request.body as { name: string }).name }), secret: SECRET },
      }),
      'GET /api/Token/GetAll': { body: pageOfItems([buildToken()]) },
    });
    const user = userEvent.setup();
    const { location } = renderApp({ path: '/tokens/createPAT', ...me() });
    expect(await screen.findByRole('combobox', { name: 'Token role on Sales' })).toBeTruthy();
    expect(optionsOf('Token role on Sales')).toEqual(['No access', 'Reader']);
    expect(optionsOf('Token role on Operations')).toEqual(['No access', 'Reader', 'Editor', 'Owner']);

    await user.click(screen.getByRole('button', { name: 'Create token' }));
    expect(screen.getByText('Name is required')).toBeTruthy();
    expect(screen.getByText('At least one Role is required')).toBeTruthy();
    expect(api.requests.some((r) => r.method === 'POST')).toBe(false);

    await user.type(screen.getByRole('textbox', { name: 'Name' }), 'Nightly export');
    await user.click(screen.getByRole('radio', { name: '90 days' }));
    await user.selectOptions(screen.getByRole('combobox', { name: 'Token role on Operations' }), 'Editor');
    await user.click(screen.getByRole('button', { name: 'Create token' }));

    expect(await screen.findByText('Copy your token now')).toBeTruthy();
    expect(api.requests.find((r) => r.method === 'POST')?.body).toEqual({
      kind: 'personal',
      name: 'Nightly export',
      expiresOn: utcDateIn(90),
      roles: [{ collectionUid: 'col-2', role: 'Editor' }],
    });
    expect(screen.getByText(SECRET)).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(location()).toBe('/tokens'));
    expect(await screen.findByRole('table', { name: 'Tokens' })).toBeTruthy();
    expect(document.body.textContent).not.toContain(SECRET);
  });

  it('refuses a custom date beyond the server’s maximum before asking the server', async () => {
    const api = fakeApi({ 'GET /api/DataRole/1/UserDataRoles': { body: myRoles } });
    const user = userEvent.setup();
    renderApp({ path: '/tokens/createPAT', ...me() });
    await user.type(await screen.findByRole('textbox', { name: 'Name' }), 'Too long');
    await user.click(screen.getByRole('radio', { name: 'Custom date' }));
    const date = screen.getByLabelText('Expiry date');
    await user.clear(date);
    await user.type(date, utcDateIn(400));
    await user.click(screen.getByRole('button', { name: 'Create token' }));
    expect(screen.getByText('Expiry must be at most 365 days from today')).toBeTruthy();
    expect(api.requests.some((r) => r.method === 'POST')).toBe(false);
  });
});

describe('the token list', () => {
  it('shows each token’s roles, expiry, last use and status, and revokes after naming the consequence', async () => {
    const revoked = buildToken({
      id: 6,
      kind: 'collection',
      name: 'Partner feed',
      owner: null,
      collection: { uid: 'col-1', name: 'Sales' },
      revokedAt: '2026-11-20T09:00:00.000Z',
      revokedBy: { id: 1, name: 'Ada Lovelace', username: 'ada' },
      status: 'Revoked',
    });
    const active = buildToken({ lastUsedAt: '2026-11-22T08:00:00.000Z', lastUsedAddress: '203.0.113.7' });
    const api = fakeApi({
      'GET /api/DataRole/1/UserDataRoles': { body: myRoles },
      'GET /api/Token/GetAll': { body: pageOfItems([active, revoked]) },
      'PUT /api/Token/5/Revoke': { body: { ...active, status: 'Revoked' } },
    });
    const user = userEvent.setup();
    renderApp({ path: '/tokens', ...me() });
    const table = await screen.findByRole('table', { name: 'Tokens' });
    const [, first, second] = within(table).getAllByRole('row') as HTMLElement[];
    expect(first?.textContent).toContain('from 203.0.113.7');
    expect(first?.textContent).toContain('Active');
    expect(second?.textContent).toContain('Revoked');
    expect(within(second as HTMLElement).queryByRole('button', { name: /Revoke/ })).toBeNull();

    await user.click(within(first as HTMLElement).getByRole('button', { name: 'Revoke Nightly export' }));
    const dialog = await screen.findByRole('dialog', { name: 'Revoke token' });
    expect(dialog.textContent).toContain('401 Unauthenticated from their very next call');
    await user.click(within(dialog).getByRole('button', { name: 'Revoke token' }));
    await waitFor(() => expect(api.requests.some((r) => r.method === 'PUT' && r.path.endsWith('/Revoke'))).toBe(true));
  });
});

describe('a token reported as leaked', () => {
  it('is listed as revoked, reported as leaked, by nobody', async () => {
    const leaked = buildToken({
      revokedAt: '2026-11-21T07:30:00.000Z',
      revokedBy: null,
      revokedReason: 'leaked',
      status: 'Revoked',
    });
    const byHand = buildToken({
      id: 7,
      name: 'Old export',
      revokedAt: '2026-11-20T09:00:00.000Z',
      revokedBy: { id: 1, name: 'Ada Lovelace', username: 'ada' },
      revokedReason: 'revoked',
      status: 'Revoked',
    });
    fakeApi({
      'GET /api/DataRole/1/UserDataRoles': { body: myRoles },
      'GET /api/Token/GetAll': { body: pageOfItems([leaked, byHand]) },
    });
    renderApp({ path: '/tokens', ...me() });
    const table = await screen.findByRole('table', { name: 'Tokens' });
    const [, first, second] = within(table).getAllByRole('row') as HTMLElement[];
    expect(within(first as HTMLElement).getByText('Revoked')).toBeTruthy();
    expect(within(first as HTMLElement).getByText('Reported as leaked')).toBeTruthy();
    expect(first?.textContent).toContain('after a leak report');
    expect(within(first as HTMLElement).queryByRole('button', { name: /Revoke/ })).toBeNull();
    expect(second?.textContent).toContain('by Ada Lovelace');
    expect(second?.textContent).not.toContain('leak');
  });
});

describe('the snippets of a data asset', () => {
  it('shows the configured tools only, in the configured format, and puts a pasted token in place', async () => {
    fakeApi({
      'GET /api/DataSource/GetByUid/orders-by-country': {
        body: buildDataSourceDetail({
          clientToolConfigurations: [
            { id: 1, tool: 'r', settings: {} },
            { id: 2, tool: 'powerbi', settings: { format: 'csv' } },
          ],
        }),
      },
    });
    const user = userEvent.setup();
    renderApp({ path: '/data-source/orders-by-country', ...me() });
    const region = await screen.findByRole('region', { name: 'Call it from a program' });
    expect(
      within(region)
        .getAllByRole('tab')
        .map((tab) => tab.textContent),
    ).toEqual(['R', 'Power BI']);
    expect((within(region).getByRole('combobox', { name: 'Format' }) as HTMLSelectElement).value).toBe('csv');
    expect(region.textContent).toContain('token <- "<YOUR_TOKEN>"');

    const field = within(region).getByLabelText('Your token (optional)');
    await user.type(field, 'not a token!');
    expect(within(region).getByText('A token has only letters, digits and - . _ ~ + / =')).toBeTruthy();
    expect(region.textContent).toContain('token <- "<YOUR_TOKEN>"');

    await user.clear(field);
    await user.type(field, SECRET);
    expect(region.textContent).toContain(`token <- "${SECRET}"`);
    expect(region.textContent).not.toContain('<YOUR_TOKEN>"');
  });
});

describe('the collection’s Tokens tab', () => {
  it('lists the collection tokens for those who manage its roles; only an Owner may create one', async () => {
    fakeApi({
      'GET /api/DataSourceCollection/GetByUid/col-1': {
        body: buildCollectionDetail({ myRole: 'Owner', name: 'Sales' }),
      },
      'GET /api/Token/GetByCollection': {
        body: [
          buildToken({
            kind: 'collection',
            name: 'Reporting',
            owner: null,
            collection: { uid: 'col-1', name: 'Sales' },
          }),
        ],
      },
    });
    renderApp({ path: '/collection/col-1/tokens', ...me() });
    const table = await screen.findByRole('table', { name: 'Tokens of Sales' });
    expect(within(table).getByText('Reporting')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'New collection token' })).toBeTruthy();
  });

  it('is not offered to a Reader', async () => {
    fakeApi({
      'GET /api/DataSourceCollection/GetByUid/col-1': {
        body: buildCollectionDetail({
          myRole: 'Reader',
          can: { edit: false, manageRoles: false, delete: false, editAssets: false },
        }),
      },
    });
    const { location } = renderApp({ path: '/collection/col-1/tokens', ...me() });
    // The tab does not exist for them: the URL falls back to the collection itself.
    await waitFor(() => expect(location()).toBe('/collection/col-1'));
    expect(screen.queryByRole('tab', { name: 'Tokens' })).toBeNull();
  });
});
