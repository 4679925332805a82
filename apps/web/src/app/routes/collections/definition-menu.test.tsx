import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { buildAuth, buildCollectionDetail, buildCurrentUser, buildUser } from '../../../test/builders.ts';
import { buildDataSourceSummary } from '../../../test/data-source-builders.ts';
import { fakeApi } from '../../../test/fake-api.ts';
import { renderApp } from '../../../test/render-app.tsx';

const signedIn = () => ({ auth: buildAuth({ user: buildUser() }), currentUser: buildCurrentUser({ id: 1 }) });

describe("the collection's definition on its screen", () => {
  it('offers Export and Import to an Owner', async () => {
    fakeApi({
      'GET /api/DataSourceCollection/GetByUid/col-1': { body: buildCollectionDetail() },
      'GET /api/DataSource': { body: [buildDataSourceSummary()] },
      'GET /api/DataSourceCollection/col-1/Definition': { text: 'apiVersion: datalab/v1\nname: Sales\n' },
    });
    const user = userEvent.setup();
    renderApp({ path: '/collection/col-1', ...signedIn() });
    await user.click(await screen.findByRole('button', { name: 'Definition' }));
    expect(screen.getByRole('menuitem', { name: 'Import' })).toBeTruthy();
    await user.click(screen.getByRole('menuitem', { name: 'Export' }));
    expect((await screen.findByLabelText('Sales.datalab.yaml')).textContent).toContain('name: Sales');
  });

  it('offers nothing to an Editor, whom the calls would refuse', async () => {
    const editor = buildCollectionDetail({
      myRole: 'Editor',
      can: { edit: false, manageRoles: false, delete: false, editAssets: true },
    });
    fakeApi({
      'GET /api/DataSourceCollection/GetByUid/col-1': { body: editor },
      'GET /api/DataSource': { body: [buildDataSourceSummary()] },
    });
    renderApp({ path: '/collection/col-1', ...signedIn() });
    expect(await screen.findByRole('link', { name: 'Orders by country' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Definition' })).toBeNull();
  });
});
