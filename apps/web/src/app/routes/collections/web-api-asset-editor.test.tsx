import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildAuth, buildCollectionDetail, buildCurrentUser, buildUser } from '../../../test/builders.ts';
import { buildDataSourceDetail, buildSqlConnection } from '../../../test/data-source-builders.ts';
import { fakeApi, type FakeRequest } from '../../../test/fake-api.ts';
import { renderApp } from '../../../test/render-app.tsx';
import { buildExchange, buildTryReply, buildWebApiConnection } from '../../../test/web-api-builders.ts';

// The Web API variant of the asset editor: the connection's kind decides; the request's {placeholders} are offered
// for definition; "Try" shows the rows and the upstream exchange (secrets masked); Save needs a successful Try of
// what is on screen, and sends the request with the chosen credential.

beforeAll(() => {
  const empty = { length: 0, item: () => null, [Symbol.iterator]: [][Symbol.iterator] };
  Range.prototype.getClientRects ??= () => empty as unknown as DOMRectList;
  Range.prototype.getBoundingClientRect ??= () => new DOMRect();
});

const editor = () => ({ auth: buildAuth({ user: buildUser() }), currentUser: buildCurrentUser({ id: 1 }) });
const saved = buildDataSourceDetail({
  uid: 'countries-by-region',
  name: 'Countries by region',
  kind: 'webapi',
  sql: '',
  connection: { id: 7, name: 'countries', kind: 'webapi' },
  webApi: {
    request: {
      method: 'GET',
      path: '/countries/{region}',
      query: { lang: 'en' },
      headers: {},
      rowsPath: 'data',
      paging: { kind: 'page', param: 'page', start: 1 },
    },
    credential: { id: 31, name: 'demo key', kind: 'api-key' },
  },
  parameters: [{ id: 1, position: 0, name: 'region', type: 'string', required: true, list: false }],
  transformations: [],
  can: { edit: true },
});

const routes = (tryReply = buildTryReply()) => ({
  'GET /api/DataSourceCollection/GetByUid/col-1': { body: buildCollectionDetail() },
  'GET /api/SqlConnection': { body: [buildSqlConnection({ id: 5, kind: 'sqlite', name: 'shop' })] },
  'GET /api/WebApiConnection': { body: [buildWebApiConnection()] },
  'GET /api/SqlConnection/5/Schema': { body: { tables: [] } },
  'POST /api/WebApiDataSource/Preview': { body: tryReply },
  'POST /api/WebApiDataSource': { status: 201, body: saved },
  'PUT /api/WebApiDataSource': { body: saved },
  'GET /api/DataSource/GetByUid/countries-by-region': { body: saved },
});
const last = (requests: FakeRequest[], method: string, path: string) =>
  requests.filter((request) => request.method === method && request.path === path).at(-1)?.body;

describe('the Web API asset editor', () => {
  it('defines the placeholders of the request, tries it, shows rows and exchange, then saves', async () => {
    const api = fakeApi(routes());
    const user = userEvent.setup();
    const { location } = renderApp({ path: '/collection/col-1/createAsset', ...editor() });
    await user.click(await screen.findByRole('combobox', { name: /^Connection/u }));
    await user.click(await screen.findByRole('option', { name: 'countries (Web API)' }));
    expect(await screen.findByRole('region', { name: 'Request' })).toBeTruthy();

    await user.type(screen.getByRole('textbox', { name: 'Name' }), 'Countries by region');
    await user.type(screen.getByRole('textbox', { name: /^Path/u }), '/countries/{{region}');
    await user.click(screen.getByRole('button', { name: 'Add query parameter' }));
    await user.type(screen.getByRole('textbox', { name: 'Name of query parameter 1' }), 'lang');
    await user.type(screen.getByRole('textbox', { name: 'Value of query parameter 1' }), 'en');
    await user.type(screen.getByRole('textbox', { name: /^Where the rows are/u }), 'data');
    await user.click(screen.getByRole('radio', { name: 'Page numbers' }));
    await user.click(screen.getByRole('button', { name: 'Define {region}' }));
    // The credential follows the connection: its only one is picked.
    expect((screen.getByRole('combobox', { name: /^Credential/u }) as HTMLInputElement).value).toBe('demo key');

    const save = screen.getByRole('button', { name: 'Save' });
    expect(save.hasAttribute('disabled')).toBe(true);
    await user.type(screen.getByRole('textbox', { name: 'Value of {region}' }), 'EU');
    await user.click(screen.getByRole('button', { name: 'Try' }));
    const run = within(await screen.findByRole('region', { name: 'Try' }));
    expect(await run.findByText('HTTP 200')).toBeTruthy();
    expect(run.getByText(/X-Api-Key: \*{8}/u)).toBeTruthy();
    expect(await run.findByText('France')).toBeTruthy();
    expect(last(api.requests, 'POST', '/api/WebApiDataSource/Preview')).toMatchObject({
      collectionUid: 'col-1',
      connectionId: 7,
      credentialId: 31,
      values: { region: 'EU' },
      request: {
        method: 'GET',
        path: '/countries/{region}',
        query: { lang: 'en' },
        rowsPath: 'data',
        paging: { kind: 'page', param: 'page', start: 1 },
      },
      parameters: [{ name: 'region', type: 'string', required: true }],
    });
    await waitFor(() => expect(save.hasAttribute('disabled')).toBe(false));

    await user.click(save);
    await waitFor(() => expect(location()).toBe('/data-source/countries-by-region'));
    const body = last(api.requests, 'POST', '/api/WebApiDataSource');
    expect(body).toMatchObject({
      collectionUid: 'col-1',
      connectionId: 7,
      credentialId: 31,
      name: 'Countries by region',
    });
    expect(body).not.toHaveProperty('sql');
  });

  it('refuses a body that is not JSON, and a failed upstream call does not allow saving', async () => {
    const failed = buildTryReply({
      rows: [],
      columns: [],
      error: { status: 502, message: 'The web API answered with status 500' },
      exchanges: [buildExchange({ status: 500, replyPreview: '{"error":"boom"}' })],
    });
    fakeApi(routes(failed));
    const user = userEvent.setup();
    renderApp({ path: '/collection/col-1/edit/data-asset/countries-by-region', ...editor() });
    expect(await screen.findByRole('heading', { level: 1, name: 'Edit Countries by region' })).toBeTruthy();
    const path = await screen.findByRole('textbox', { name: /^Path/u });
    expect((path as HTMLInputElement).value).toBe('/countries/{region}');
    await user.click(screen.getByRole('combobox', { name: 'Method' }));
    await user.click(await screen.findByRole('option', { name: 'POST' }));
    await user.type(screen.getByRole('textbox', { name: /^Body/u }), '{{ "region": ');
    // Said on the field and beside Try, which waits for a body that parses.
    expect(screen.getAllByText('The body is not valid JSON.')).toHaveLength(2);
    expect(screen.getByRole('textbox', { name: /^Body/u }).getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByRole('button', { name: 'Try' }).hasAttribute('disabled')).toBe(true);

    await user.type(screen.getByRole('textbox', { name: /^Body/u }), '"{{region}" }');
    await user.type(screen.getByRole('textbox', { name: 'Value of {region}' }), 'EU');
    await user.click(screen.getByRole('button', { name: 'Try' }));
    expect(await screen.findByText('The web API answered with status 500')).toBeTruthy();
    expect(screen.getByText('HTTP 500')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Save' }).hasAttribute('disabled')).toBe(true);
  });
});
