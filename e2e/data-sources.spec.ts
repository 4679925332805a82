import { readFile } from 'node:fs/promises';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, signInAt, test } from './fixtures.ts';

// `analyst` opens a demo asset of Sales, picks a region and then a country in the dependent dropdown,
// calls, sees rows, sorts, sees the e-mails masked, downloads CSV and the file's content is checked.

/** The text of one column's cells in the rows the grid shows. */
async function columnTexts(page: Page, grid: string, column: string): Promise<string[]> {
  const region = page.getByRole('region', { name: grid });
  const headers = await region.locator('thead th').allInnerTexts();
  // A header shows the column's name, then its type.
  const index = headers.findIndex((text) => text.trim().split(/\s+/u)[0] === column);
  expect(index, `column ${column} in ${headers.join(', ')}`).toBeGreaterThan(0);
  return region.locator(`tbody tr td:nth-child(${index + 1})`).allInnerTexts();
}

const masked = /^[^*@]{1,2}\*+$/u;

/** WCAG 2.2 AA violations on the page as it is now (as e2e/accessibility.spec.ts checks every route). */
async function accessibilityViolations(page: Page): Promise<string[]> {
  await page.waitForTimeout(350); // Mantine fades content in; axe measures colours as painted
  const result = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'])
    .analyze();
  return result.violations.flatMap((violation) =>
    violation.nodes.map((node) => `${violation.id} ${node.target.join(' ')}`),
  );
}

test('analyst calls a demo asset with dependent dropdowns, sorts, sees masked e-mails and downloads CSV', async ({
  page,
}) => {
  test.setTimeout(90_000);
  await signInAt(page, '/data-source', 'analyst');
  // The list's kind badges keep their whole label however narrow the table makes their column.
  const kind = page.getByRole('row', { name: /Country indicators/ }).getByText('Web API', { exact: true });
  await expect(kind).toBeVisible();
  expect(await kind.evaluate((label) => label.scrollWidth <= label.clientWidth)).toBe(true);
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
  await expect(page.getByText(/^[\d,]+ rows$/u).first()).toBeVisible();

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
  // The whole result is a download job: started from the Download menu, polled, then the file is handed over.
  await page.getByRole('button', { name: 'Download', exact: true }).click();
  await page.getByRole('menuitem', { name: 'CSV', exact: true }).click();
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

// the developer-mode call shows the exact request (no token), the SQL as stored with its bound values
// apart (typed by the server: the form's "1" is bound as the integer 1), the four stage timings from Server-Timing
// and the raw reply; the asset's screen then lists the call among its recent calls.
test('analyst calls in developer mode, sees SQL, bound values, timings and reply, then the call in recent calls', async ({
  page,
}) => {
  test.setTimeout(90_000);
  await signInAt(page, '/data-source', 'analyst');
  await page.getByRole('link', { name: 'Orders by country', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Orders by country' })).toBeVisible();
  const assetPath = new URL(page.url()).pathname;
  await page.getByLabel('Developer mode').check();
  await page.getByRole('link', { name: 'Call in developer mode' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Call Orders by country (developer mode)' })).toBeVisible();
  // A value the server refuses first (it is listed among the recent calls too), then the call.
  await page.goto(`${assetPath}/call-dev-mode?region=1&country=DE&country=FR&minTotal=-5`);
  await page.getByRole('button', { name: 'Call', exact: true }).click();
  await expect(page.getByText('Minimum total must be at least 0').first()).toBeVisible();
  await page.goto(`${assetPath}/call-dev-mode?region=1&country=DE&country=FR&minTotal=10.5`);
  await page.getByRole('button', { name: 'Call', exact: true }).click();

  const request = page.getByRole('region', { name: 'Request' });
  await expect(request).toContainText(`POST http://localhost:${process.env['E2E_PORT'] ?? 8099}/data/v1/`);
  await expect(request).toContainText('Authorization: Bearer <your access token>');
  await expect(request).toContainText('"minTotal": "10.5"');
  const token = await page.evaluate(() => {
    const key = Object.keys(sessionStorage).find((name) => name.startsWith('oidc.user:'));
    return key ? (JSON.parse(sessionStorage.getItem(key) ?? '{}') as { access_token?: string }).access_token : '';
  });
  expect(token?.length).toBeGreaterThan(20);
  expect(await page.locator('main').innerText()).not.toContain(token);

  const sql = page.getByRole('region', { name: 'SQL' });
  await expect(sql).toContainText('where co.region_id = :region');
  await expect(sql).toContainText('and co.code in (:country)');

  const bound = page.getByRole('region', { name: 'Bound values' });
  const rowOf = (name: string) => bound.getByRole('row').filter({ has: page.getByRole('cell', { name, exact: true }) });
  await expect(rowOf(':region').getByRole('cell')).toHaveText([':region', '1', 'integer', '']);
  await expect(rowOf(':country').getByRole('cell')).toHaveText([':country', '["DE","FR"]', 'list of string', '']);
  await expect(rowOf(':minTotal').getByRole('cell')).toHaveText([':minTotal', '"10.5"', 'decimal', '']);
  await expect(rowOf(':from').getByRole('cell')).toHaveText([':from', 'null', 'date', '']);

  const timings = page.getByRole('region', { name: 'Timings' });
  for (const [label, name] of [
    ['Waiting for a connection', 'queue'],
    ['Database', 'database'],
    ['Transformations', 'transform'],
    ['Writing the reply', 'write'],
  ]) {
    await expect(timings.getByRole('row', { name: new RegExp(`^${label} ${name} [\\d.,]+ ms$`, 'u') })).toBeVisible();
  }

  const raw = page.getByRole('region', { name: 'Raw reply' });
  await expect(raw).toContainText('HTTP 200');
  await expect(raw).toContainText(
    /Server-Timing: authz;dur=[\d.]+, (cache;dur=[\d.]+, )?queue;dur=[\d.]+, database;dur=/u,
  );
  await expect(raw).toContainText('{"columns":[{"name":"order_id"');
  const rowCount = Number(
    (
      await page
        .getByText(/^[\d,]+ rows?$/u)
        .first()
        .innerText()
    )
      .split(' ')[0]!
      .replaceAll(',', ''),
  );
  expect(await accessibilityViolations(page)).toEqual([]);

  // Usage records are written in batches, a moment after the call: refresh until it is listed, newest first.
  await page.getByRole('link', { name: 'About this asset' }).click();
  const recent = page.getByRole('table', { name: 'Recent calls' });
  await expect(async () => {
    await page.getByRole('button', { name: 'Refresh' }).click();
    const headers = (await recent.locator('thead th').allInnerTexts()).map((text) => text.trim());
    const cells = await recent.locator('tbody tr').first().locator('td').allInnerTexts();
    const newest = Object.fromEntries(headers.map((header, index) => [header, cells[index]?.trim()]));
    expect(newest).toMatchObject({ Status: '200', Rows: rowCount.toLocaleString('en-US'), Format: 'JSON' });
  }).toPass({ timeout: 15_000 });
  await expect(recent.getByRole('row').filter({ hasText: '400' }).first()).toBeVisible();
  expect(await accessibilityViolations(page)).toEqual([]);
});
