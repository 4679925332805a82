import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { DefinitionChange } from '@datalab/contract/api/definitions';
import { renderUi } from '../../../test/render-ui.tsx';
import { countSentence, definitionFileName, groupByKind } from '../model/plan-view.ts';
import { PlanDiff } from './PlanDiff.tsx';

const changes: DefinitionChange[] = [
  { kind: 'dataAsset', name: 'Orders', action: 'create', differences: [] },
  {
    kind: 'dataAsset',
    name: 'Regions',
    action: 'update',
    differences: [
      { path: 'description', before: 'Old words', after: 'New words' },
      { path: 'parameters.country.allowedValues', before: ['DE'], after: ['DE', 'FR'] },
      { path: 'cache.ttlSeconds', after: 60 },
    ],
  },
  { kind: 'sqlConnection', name: 'Shop', action: 'update', differences: [{ path: 'port', before: 5432, after: 6432 }] },
  { kind: 'dataRole', name: 'Analysts', action: 'delete', differences: [] },
];

describe('PlanDiff', () => {
  it('groups the changes by kind, badges each action, and shows each field before and after side by side', () => {
    renderUi(<PlanDiff changes={changes} />);
    const groups = screen.getAllByRole('region').map((region) => region.getAttribute('aria-label'));
    // Kinds in the document's order, whatever order the changes came in.
    expect(groups).toEqual(['SQL connection', 'Data assets', 'Data role']);
    expect(screen.getByRole('heading', { name: 'Data assets (2)' })).toBeTruthy();

    expect(within(screen.getByRole('listitem', { name: 'Create Orders' })).getByText('Create')).toBeTruthy();
    expect(within(screen.getByRole('listitem', { name: 'Delete Analysts' })).getByText('Delete')).toBeTruthy();
    // A create or delete has no field table.
    expect(within(screen.getByRole('listitem', { name: 'Create Orders' })).queryByRole('table')).toBeNull();

    const table = screen.getByRole('table', { name: 'Fields of Regions that change' });
    const rows = within(table)
      .getAllByRole('row')
      .map((row) =>
        within(row)
          .queryAllByRole('cell')
          .map((cell) => cell.textContent),
      )
      .filter((cells) => cells.length > 0);
    expect(rows).toEqual([
      ['description', 'Old words', 'New words'],
      ['parameters.country.allowedValues', '[\n  "DE"\n]', '[\n  "DE",\n  "FR"\n]'],
      ['cache.ttlSeconds', 'not set', '60'],
    ]);
  });

  it('says plainly when nothing would change', () => {
    renderUi(<PlanDiff changes={[]} />);
    expect(screen.getByText('Nothing to change')).toBeTruthy();
    expect(screen.getByText(/applying it would change nothing/)).toBeTruthy();
    expect(screen.queryByRole('region')).toBeNull();
  });
});

describe('plan-view', () => {
  it('counts only the actions that occur', () => {
    expect(countSentence(changes)).toBe('1 to create, 2 to update, 1 to delete');
    expect(countSentence(changes.slice(2, 3), { done: true })).toBe('1 updated');
    expect(groupByKind([])).toEqual([]);
  });

  it('names the file after the collection without characters file systems refuse', () => {
    expect(definitionFileName('Sales')).toBe('Sales.datalab.yaml');
    expect(definitionFileName('EU/US: "sales"')).toBe('EU_US_ _sales_.datalab.yaml');
    expect(definitionFileName('///')).toBe('_.datalab.yaml');
  });
});
