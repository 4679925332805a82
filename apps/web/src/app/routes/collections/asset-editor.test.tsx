import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildAuth, buildCollectionDetail, buildCurrentUser, buildUser } from '../../../test/builders.ts';
import { buildDataSourceDetail, buildSqlConnection } from '../../../test/data-source-builders.ts';
import { fakeApi } from '../../../test/fake-api.ts';
import { renderApp } from '../../../test/render-app.tsx';

// jsdom has no layout: CodeMirror measures text ranges, which jsdom's Range lacks.
beforeAll(() => {
  const empty = { length: 0, item: () => null, [Symbol.iterator]: [][Symbol.iterator] };
  Range.prototype.getClientRects ??= () => empty as unknown as DOMRectList;
  Range.prototype.getBoundingClientRect ??= () => new DOMRect();
});

const editor = () => ({ auth: buildAuth({ user: buildUser() }), currentUser: buildCurrentUser({ id: 1 }) });

const asset = buildDataSourceDetail({
  uid: 'ds-1',
  sql: 'select id, email from orders where country = :country and total >= :minTotal',
  parameters: [{ id: 102, position: 0, name: 'country', label: 'Country', type: 'string', required: true }],
  transformations: [],
  can: { edit: true },
});

const routes = () => ({
  'GET /api/DataSourceCollection/GetByUid/col-1': { body: buildCollectionDetail() },
  'GET /api/SqlConnection': { body: [buildSqlConnection({ id: 5, kind: 'sqlite', name: 'shop' })] },
  'GET /api/WebApiConnection': { body: [] },
  'GET /api/SqlConnection/5/Schema': {
    body: { tables: [{ schema: null, name: 'orders', columns: [{ name: 'id', type: 'integer' }] }] },
  },
  'GET /api/DataSource/GetByUid/ds-1': { body: asset },
  'POST /api/SqlDataSource/Preview': {
    body: {
      columns: [{ name: 'id', type: 'integer' }],
      rows: [{ id: 7 }],
      truncated: false,
      durationMs: 3,
      boundValues: { country: 'FR' },
    },
  },
  'PUT /api/SqlDataSource': { body: asset },
});

describe('the data asset editor', () => {
  // A whole editor with its parameter cards in jsdom: slow on a shared machine, hence the longer time limit.
  it(
    'offers the parameters found in the SQL for definition, runs before saving, then saves',
    { timeout: 60_000 },
    async () => {
      const api = fakeApi(routes());
      const user = userEvent.setup();
      const { location } = renderApp({ path: '/collection/col-1/edit/data-asset/ds-1', ...editor() });
      expect(await screen.findByRole('heading', { level: 1, name: 'Edit Orders by country' })).toBeTruthy();
      const save = await screen.findByRole('button', { name: 'Save' });
      expect(save.hasAttribute('disabled')).toBe(true);

      await user.click(screen.getByRole('button', { name: 'Define :minTotal' }));
      await user.click(screen.getByRole('combobox', { name: 'Type of minTotal' }));
      await user.click(await screen.findByRole('option', { name: 'decimal' }));
      await user.type(screen.getByRole('textbox', { name: 'Value of :country' }), 'FR');

      await user.click(screen.getByRole('button', { name: 'Run' }));
      expect(await screen.findByText(/Bound values/)).toBeTruthy();
      const run = api.requests.find((request) => request.path === '/api/SqlDataSource/Preview');
      expect(run?.body).toMatchObject({
        collectionUid: 'col-1',
        connectionId: 5,
        values: { country: 'FR' },
        parameters: [
          { name: 'country', type: 'string', label: 'Country' },
          { name: 'minTotal', type: 'decimal', required: true },
        ],
      });
      await waitFor(() => expect(save.hasAttribute('disabled')).toBe(false));

      // A change after the run asks for another run before saving.
      await user.type(screen.getByRole('textbox', { name: 'Label of minTotal' }), 'Minimum');
      expect(save.hasAttribute('disabled')).toBe(true);
      await user.click(screen.getByRole('button', { name: 'Run' }));
      await waitFor(() => expect(save.hasAttribute('disabled')).toBe(false));

      await user.click(save);
      await waitFor(() => expect(location()).toBe('/data-source/ds-1'));
      const put = api.requests.find((request) => request.method === 'PUT');
      expect(put?.body).toMatchObject({ uid: 'ds-1', connectionId: 5, sql: asset.sql });
      expect((put?.body as { parameters: unknown[] }).parameters).toHaveLength(2);
    },
  );
});
