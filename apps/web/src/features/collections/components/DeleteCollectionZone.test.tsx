import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { fakeApi } from '../../../test/fake-api.ts';
import { renderUi } from '../../../test/render-ui.tsx';
import { DeleteCollectionZone } from './DeleteCollectionZone.tsx';

describe('DeleteCollectionZone', () => {
  it('deletes only once the exact name is typed', async () => {
    const api = fakeApi({
      'DELETE /api/DataSourceCollection': { body: { uid: 'col-1', deleted: true } },
      'GET /api/DataSourceCollection/col-1/Dependents': {
        body: {
          name: 'Sales 2026',
          blockers: [],
          removes: [
            {
              kind: 'dataAsset',
              count: 2,
              items: [
                { kind: 'dataAsset', ref: 'a1', name: 'Orders' },
                { kind: 'dataAsset', ref: 'a2', name: 'Regions' },
              ],
            },
            { kind: 'download', count: 3, items: [] },
          ],
        },
      },
    });
    const onDeleted = vi.fn();
    const user = userEvent.setup();
    renderUi(<DeleteCollectionZone uid="col-1" name="Sales 2026" onDeleted={onDeleted} />);

    await user.click(screen.getByRole('button', { name: 'Delete collection' }));
    const confirm = await screen.findByRole('button', { name: 'Delete this collection' });
    const typed = screen.getByRole('textbox', { name: 'Collection name' });
    expect(confirm).toHaveProperty('disabled', true);
    // What goes with it is listed before anything is typed.
    expect(await screen.findByText('2 data assets: Orders, Regions')).toBeTruthy();
    expect(screen.getByText('3 downloads and their files')).toBeTruthy();

    await user.type(typed, 'sales 2026');
    expect(confirm).toHaveProperty('disabled', true);
    await user.clear(typed);
    await user.type(typed, 'Sales 2026 ');
    expect(confirm).toHaveProperty('disabled', true);
    await user.type(typed, '{Backspace}');
    expect(confirm).toHaveProperty('disabled', false);
    expect(api.requests.filter((request) => request.method === 'DELETE')).toHaveLength(0);

    await user.click(confirm);
    await waitFor(() => expect(onDeleted).toHaveBeenCalledTimes(1));
    const deletes = api.requests.filter((request) => request.method === 'DELETE');
    expect(deletes).toHaveLength(1);
    expect(deletes[0]?.query.get('uid')).toBe('col-1');
  });

  it('forgets what was typed when the dialog is cancelled', async () => {
    fakeApi({});
    const user = userEvent.setup();
    renderUi(<DeleteCollectionZone uid="col-1" name="Sales" onDeleted={vi.fn()} />);
    await user.click(screen.getByRole('button', { name: 'Delete collection' }));
    await user.type(await screen.findByRole('textbox', { name: 'Collection name' }), 'Sales');
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    await user.click(screen.getByRole('button', { name: 'Delete collection' }));
    expect((await screen.findByRole('textbox', { name: 'Collection name' })).getAttribute('value')).toBe('');
    expect(screen.getByRole('button', { name: 'Delete this collection' })).toHaveProperty('disabled', true);
  });
});
