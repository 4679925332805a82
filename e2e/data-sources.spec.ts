import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { expect, signInAt, test } from './fixtures.ts';

// Issue 8 §7: `analyst` opens a demo asset of Sales, picks a region and then a country in the dependent dropdown,
// calls, sees rows, sorts, sees the e-mails masked, downloads CSV and the file's content is checked.

/** The text of one column's cells in the rows the grid shows. */
async function columnTexts(page: Page, grid: string, column: string): Promise<string[]> {
  const region = page.getByRole('region', { name: grid });
  const headers = await region.locator('thead th').allInnerTexts();
  const index = headers.findIndex((text) => text.trim() === column);
  expect(index, `column ${column} in ${headers.join(', ')}`).toBeGreaterThan(0);
  return region.locator(`tbody tr td:nth-child(${index + 1})`).allInnerTexts();
}

const masked = /^[^*@]{1,2}\*+$/u;

test('analyst calls a demo asset with dependent dropdowns, sorts, sees masked e-mails and downloads CSV', async ({
  page,
}) => {
  test.setTimeout(90_000);
  await signInAt(page, '/data-source', 'analyst');
  await page.getByRole('link', { name: 'Orders by country', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Orders by country' })).toBeVisible();
  await page.getByRole('link', { name: 'Call', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Call Orders by country' })).toBeVisible();

  const countries = page.getByRole('combobox', { name: 'Countries' });
  await expect(countries).toBeDisabled();
  await page.getByRole('combobox', { name: 'Region' }).click();
  await page.getByRole('option', { name: 'Europe', exact: true }).click();
  await expect(countries).toBeEnabled();
  await countries.click();
  await page.getByRole('option', { name: 'France', exact: true }).click();
  await page.keyboard.press('Escape');
  await expect(page).toHaveURL(/[?&]region=\d+&country=FR(&|$)/u);

  await page.getByRole('button', { name: 'Call', exact: true }).click();
  const gridName = 'Result of Orders by country';
  const grid = page.getByRole('region', { name: gridName });
  await expect(grid.locator('tbody tr').first()).toBeVisible();
  await expect(page.getByText(/^\d+ rows$/u).first()).toBeVisible();

  const countryCells = await columnTexts(page, gridName, 'country');
  expect(countryCells.length).toBeGreaterThan(0);
  expect(new Set(countryCells)).toEqual(new Set(['France']));
  const emails = await columnTexts(page, gridName, 'email');
  for (const email of emails) expect(email).toMatch(masked);

  await grid.getByRole('button', { name: 'total', exact: true }).click();
  await expect(grid.getByRole('columnheader', { name: 'total' })).toHaveAttribute('aria-sort', 'ascending');
  const totals = (await columnTexts(page, gridName, 'total')).map(Number);
  expect(totals).toEqual([...totals].sort((a, b) => a - b));

  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'CSV', exact: true }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/\.csv$/u);
  const csv = (await readFile(await download.path(), 'utf8')).trim().split(/\r?\n/u);
  const header = (csv[0] ?? '').split(',');
  expect(header).toEqual([
    'order_id',
    'ordered_at',
    'customer',
    'email',
    'country',
    'product',
    'quantity',
    'total',
    'status',
  ]);
  const rows = csv.slice(1).map((line) => line.split(','));
  expect(rows.length).toBeGreaterThan(0);
  for (const row of rows) {
    expect(row[4]).toBe('France');
    expect(row[3]).toMatch(masked);
  }
});
