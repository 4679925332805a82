import type { Page } from '@playwright/test';
import { parse, stringify } from 'yaml';
import { expect as baseExpect, signInAt, test } from './fixtures.ts';

// An Owner exports the Sales collection's definition, edits one data asset's description in the Import dialog, sees
// exactly that change in the plan, applies it and finds the new description on the asset; then imports the export
// as it was, which puts the description back.

// A plan compares, and an apply rewrites, the whole collection: on a busy machine that outlasts the default wait.
const expect = baseExpect.configure({ timeout: 30_000 });

type Asset = { name: string; description?: string };

/** The first of the document's data assets (its `dataAssets` list, docs/definitions.md). */
function firstAsset(document: Record<string, unknown>): { asset: Asset; name: string } {
  const asset = (document['dataAssets'] as Asset[] | undefined)?.[0];
  if (!asset) throw new Error('the exported document holds no data asset');
  return { asset, name: asset.name };
}

async function openDefinition(page: Page, item: 'Export' | 'Import') {
  await page.getByRole('button', { name: 'Definition' }).click();
  await page.getByRole('menuitem', { name: item }).click();
}

async function importDocument(page: Page, text: string) {
  await openDefinition(page, 'Import');
  await page.getByRole('textbox', { name: 'Definition document' }).fill(text);
  await page.getByRole('button', { name: 'Plan', exact: true }).click();
}

test('an Owner exports, edits a description in Import, sees exactly that change, and applies it', async ({ page }) => {
  test.setTimeout(180_000);
  await signInAt(page, '/collection?search=Sales', 'admin');
  // Opened by its address: the collection screen is where every step below starts again.
  const collectionPath = await page.getByRole('link', { name: 'Sales', exact: true }).first().getAttribute('href');
  if (!collectionPath) throw new Error('no link to the Sales collection');
  await page.goto(collectionPath);
  await expect(page.getByRole('heading', { level: 1, name: 'Sales' })).toBeVisible();

  await openDefinition(page, 'Export');
  const shown = page.getByLabel('Sales.datalab.yaml');
  await expect(shown).toContainText('apiVersion');
  const exported = (await shown.textContent()) ?? '';
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download Sales.datalab.yaml' }).click();
  expect((await download).suggestedFilename()).toBe('Sales.datalab.yaml');
  await page.keyboard.press('Escape');

  const document = parse(exported) as Record<string, unknown>;
  const { asset, name } = firstAsset(document);
  const before = asset.description;
  const after = `Edited as code ${Date.now()}`;
  asset.description = after;

  await importDocument(page, stringify(document));
  const plan = page.getByLabel('Plan', { exact: true });
  await expect(plan.getByText('1 to update', { exact: true })).toBeVisible();
  await expect(plan.getByRole('listitem')).toHaveCount(1);
  await expect(plan.getByRole('listitem', { name: `Update ${name}` })).toBeVisible();
  const rows = plan.getByRole('table', { name: `Fields of ${name} that change` }).locator('tbody tr');
  await expect(rows).toHaveCount(1);
  await expect(rows.first().locator('td').nth(0)).toHaveText(/description$/u);
  await expect(rows.first().locator('td').nth(1)).toHaveText(before ?? 'not set');
  await expect(rows.first().locator('td').nth(2)).toHaveText(after);

  await page.getByRole('button', { name: 'Apply…' }).click();
  await page.getByRole('region', { name: 'Confirm apply' }).getByRole('button', { name: 'Apply', exact: true }).click();
  await expect(page.getByText('Applied to Sales: 1 updated.')).toBeVisible();
  await page.getByRole('button', { name: 'Done', exact: true }).click();

  await page.getByRole('tab', { name: /Data assets/ }).click();
  await page.getByRole('link', { name, exact: true }).click();
  await expect(page.getByText(after)).toBeVisible();

  // The export as it was puts the description back: the plan is that one change the other way.
  await page.goto(collectionPath);
  await importDocument(page, exported);
  await expect(plan.getByRole('listitem', { name: `Update ${name}` })).toBeVisible();
  await expect(rows.first().locator('td').nth(1)).toHaveText(after);
  await page.getByRole('button', { name: 'Apply…' }).click();
  await page.getByRole('region', { name: 'Confirm apply' }).getByRole('button', { name: 'Apply', exact: true }).click();
  await expect(page.getByText('Applied to Sales: 1 updated.')).toBeVisible();
});
