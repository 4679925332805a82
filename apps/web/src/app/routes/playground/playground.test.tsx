import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEVELOPER_MODE_KEY } from '../../../lib/developer-mode.ts';
import {
  buildAuth,
  buildCollectionDetail,
  buildCollectionSummary,
  buildCurrentUser,
  buildUser,
  pageOfItems,
} from '../../../test/builders.ts';
import { buildSqlConnection } from '../../../test/data-source-builders.ts';
import { fakeApi, type FakeRequest } from '../../../test/fake-api.ts';
import { renderApp } from '../../../test/render-app.tsx';
import { buildTryReply, buildWebApiConnection } from '../../../test/web-api-builders.ts';

// /playground: a developer-mode tool over the connections of the collections the caller owns. It runs drafts through
// the same preview calls as the editor (nothing stored) and hands a draft to the editor as a new asset.

beforeAll(() => {
  const empty = { length: 0, item: () => null, [Symbol.iterator]: [][Symbol.iterator] };
  Range.prototype.getClientRects ??= () => empty as unknown as DOMRectList;
  Range.prototype.getBoundingClientRect ??= () => new DOMRect();
});

const signedIn = () => ({ auth: buildAuth({ user: buildUser() }), currentUser: buildCurrentUser({ id: 1 }) });
const routes = {
  'GET /api/DataSourceCollection/GetAll': {
    body: pageOfItems([
      buildCollectionSummary({ uid: 'col-1', name: 'Sales', myRole: 'Owner' }),
      buildCollectionSummary({ uid: 'col-2', name: 'Finance', myRole: 'Reader' }),
      buildCollectionSummary({ uid: 'col-3', name: 'Operations', myRole: 'Owner' }),
    ]),
  },
  'GET /api/DataSourceCollection/GetByUid/col-1': { body: buildCollectionDetail() },
  'GET /api/SqlConnection': { body: [buildSqlConnection({ id: 5, kind: 'sqlite', name: 'shop' })] },
  'GET /api/SqlConnection/5/Schema': { body: { tables: [] } },
  'GET /api/WebApiConnection': (request: FakeRequest) => ({
    body: request.query.get('collectionUid') === 'col-1' ? [buildWebApiConnection()] : [],
  }),
  'POST /api/WebApiDataSource/Preview': { body: buildTryReply() },
};

describe('the playground', () => {
  it('is a developer-mode tool: it says so, and turning the mode on opens it', async () => {
    fakeApi(routes);
    const user = userEvent.setup();
    renderApp({ path: '/playground', ...signedIn() });
    expect(await screen.findByText('The playground is a developer-mode tool')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Turn on developer mode' }));
    expect(await screen.findByRole('region', { name: 'Where it runs' })).toBeTruthy();
  });

  it('runs an HTTP request on a connection of an owned collection, then hands it to the editor', async () => {
    window.localStorage.setItem(DEVELOPER_MODE_KEY, 'true');
    const api = fakeApi(routes);
    const user = userEvent.setup();
    const { location } = renderApp({ path: '/playground', ...signedIn() });
    const collection = await screen.findByRole('combobox', { name: /^Collection/u });
    await user.click(collection);
    // Only the collections the caller owns.
    expect(await screen.findByRole('option', { name: 'Operations' })).toBeTruthy();
    expect(screen.queryByRole('option', { name: 'Finance' })).toBeNull();
    await user.click(screen.getByRole('option', { name: 'Sales' }));

    await user.click(screen.getByRole('combobox', { name: /^Connection/u }));
    await user.click(await screen.findByRole('option', { name: 'countries (Web API)' }));
    await user.type(await screen.findByRole('textbox', { name: /^Path/u }), '/countries/{{region}');
    await user.type(screen.getByRole('textbox', { name: 'Value of {region}' }), 'EU');
    await user.click(screen.getByRole('button', { name: 'Run' }));

    const result = within(await screen.findByRole('region', { name: 'Result' }));
    expect(await result.findByText('France')).toBeTruthy();
    expect(result.getByText('HTTP 200')).toBeTruthy();
    const sent = api.requests.find((request) => request.path === '/api/WebApiDataSource/Preview')?.body;
    expect(sent).toMatchObject({
      collectionUid: 'col-1',
      connectionId: 7,
      credentialId: 31,
      request: { method: 'GET', path: '/countries/{region}' },
      parameters: [{ name: 'region', type: 'string', required: false }],
      values: { region: 'EU' },
    });
    // Nothing was stored.
    expect(api.requests.filter((request) => request.method !== 'GET' && !request.path.endsWith('/Preview'))).toEqual(
      [],
    );

    await user.click(screen.getByRole('button', { name: 'Save as data asset' }));
    await waitFor(() => expect(location()).toBe('/collection/col-1/createAsset'));
    expect(await screen.findByRole('heading', { level: 1, name: 'New data asset in Sales' })).toBeTruthy();
    const path = await screen.findByRole('textbox', { name: /^Path/u });
    expect((path as HTMLInputElement).value).toBe('/countries/{region}');
    expect(screen.getByRole('textbox', { name: 'Label of region' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Save' }).hasAttribute('disabled')).toBe(true);
  });
  it('keeps the collection picker when the first owned collection has no connection', async () => {
    window.localStorage.setItem(DEVELOPER_MODE_KEY, 'true');
    fakeApi({
      ...routes,
      'GET /api/DataSourceCollection/GetAll': {
        body: pageOfItems([
          buildCollectionSummary({ uid: 'col-0', name: 'Empty', myRole: 'Owner' }),
          buildCollectionSummary({ uid: 'col-1', name: 'Sales', myRole: 'Owner' }),
        ]),
      },
      'GET /api/SqlConnection': (request: FakeRequest) => ({
        body: request.query.get('collectionUid') === 'col-1' ? [buildSqlConnection({ id: 5, kind: 'sqlite' })] : [],
      }),
    });
    const user = userEvent.setup();
    renderApp({ path: '/playground', ...signedIn() });
    expect(await screen.findByText('No connection in this collection')).toBeTruthy();
    await user.click(screen.getByRole('combobox', { name: /^Collection/u }));
    await user.click(await screen.findByRole('option', { name: 'Sales' }));
    expect(await screen.findByRole('combobox', { name: /^Connection/u })).toBeTruthy();
  });
});
