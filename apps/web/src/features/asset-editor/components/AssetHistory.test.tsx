import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { pageOfItems } from '../../../test/builders.ts';
import { buildDataSourceDetail } from '../../../test/data-source-builders.ts';
import { fakeApi } from '../../../test/fake-api.ts';
import { renderUi } from '../../../test/render-ui.tsx';
import { AssetHistory } from './AssetHistory.tsx';

// The History tab against a fake API at the client's boundary: the versions with who, when and what changed, the
// two newest compared side by side, another pair chosen, and Restore after its confirmation.

const definition = (sql: string, parameters: Record<string, unknown>[] = []) => ({
  kind: 'sql',
  name: 'Regions',
  description: '',
  connection: { id: 1, name: 'Shop' },
  sql,
  request: null,
  credential: null,
  cacheTtlSeconds: 300,
  rowCap: 1000,
  timeoutMs: 30000,
  maxExportRows: 1000000,
  mcpAvailable: false,
  parameters,
  transformations: [],
  clientTools: [],
});

const summary = (version: number, text: string, changed: string[] = []) => ({
  version,
  savedAt: `2026-11-28T1${version}:00:00.000Z`,
  savedBy: version === 1 ? null : { id: 2, name: 'Ada Admin' },
  changed,
  summary: text,
});

const versions = {
  1: definition('select id, name from regions'),
  2: definition('select id, name from regions where id = 1'),
  3: definition('select id, name from regions where id = 1', [{ name: 'region', type: 'integer' }]),
};

function api() {
  return fakeApi({
    'GET /api/DataSource/asset-1/Versions': {
      body: pageOfItems([
        summary(3, 'Changed parameters', ['parameters']),
        summary(2, 'Changed sql', ['sql']),
        summary(1, 'As it was when its history began'),
      ]),
    },
    ...Object.fromEntries(
      Object.entries(versions).map(([n, d]) => [
        `GET /api/DataSource/asset-1/Versions/${n}`,
        { body: { ...summary(Number(n), ''), definition: d } },
      ]),
    ),
  });
}

describe('AssetHistory', () => {
  it('lists the versions and compares the two newest, then any two chosen', async () => {
    api();
    renderUi(<AssetHistory uid="asset-1" onRestored={vi.fn()} />);
    const table = await screen.findByRole('table', { name: 'Versions' });
    const rows = within(table).getAllByRole('row');
    expect(rows[1]?.textContent).toMatch(/3.*Ada Admin.*Changed parameters.*Current/u);
    expect(rows[3]?.textContent).toMatch(/1.*Unknown.*As it was when its history began/u);

    const parameters = await screen.findByRole('region', { name: 'Parameters differences' });
    expect(parameters.textContent).toContain('"region"');
    expect(screen.getByRole('region', { name: 'SQL differences' }).textContent).toContain('No change');

    await userEvent.click(screen.getByRole('combobox', { name: 'Compare version' }));
    await userEvent.click(await screen.findByRole('option', { name: '1' }));
    const sql = screen.getByRole('region', { name: 'SQL differences' });
    await waitFor(() => expect(sql.querySelectorAll('tr[data-diff="changed"]')).toHaveLength(1));
    expect(sql.textContent).toContain('select id, name from regions');
    expect(sql.textContent).toContain('where id = 1');
  });

  it('restores a version only after its confirmation, and tells the editor which version it became', async () => {
    const { requests } = fakeApi({
      'GET /api/DataSource/asset-1/Versions': {
        body: pageOfItems([summary(2, 'Changed sql', ['sql']), summary(1, 'Created')]),
      },
      'GET /api/DataSource/asset-1/Versions/1': { body: { ...summary(1, 'Created'), definition: versions[1] } },
      'GET /api/DataSource/asset-1/Versions/2': { body: { ...summary(2, 'Changed sql'), definition: versions[2] } },
      'POST /api/DataSource/asset-1/Versions/1/Restore': {
        body: { restoredFrom: 1, version: 3, asset: buildDataSourceDetail() },
      },
    });
    const onRestored = vi.fn();
    renderUi(<AssetHistory uid="asset-1" onRestored={onRestored} />);
    const table = await screen.findByRole('table', { name: 'Versions' });
    await userEvent.click(within(table).getByRole('button', { name: 'Restore' }));
    const dialog = await screen.findByRole('dialog', { name: 'Restore version 1' });
    expect(requests.some((r) => r.method === 'POST')).toBe(false);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Restore this version' }));
    await waitFor(() => expect(onRestored).toHaveBeenCalledWith(3));
    expect(requests.filter((r) => r.method === 'POST').map((r) => r.path)).toEqual([
      '/api/DataSource/asset-1/Versions/1/Restore',
    ]);
  });
});
