import { readFile } from 'node:fs/promises';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, signInAt, test } from './fixtures.ts';

// `admin` (Owner of Sales, an administrator) adds a Web API connection to the demo's sample API
// with its loopback host allowed and an API-key credential; then writes a Web API asset with a parameter, tries it
// (the wrong key is refused upstream, and Save waits; on the demo connection, whose key is right, the rows and the
// exchange show, the key masked), saves it; `partner`, a Reader of Sales, calls it and sees the rows. The screens
// are scanned for WCAG 2.2 AA with their content open (the route scan of accessibility.spec.ts sees them empty).

const PORT = Number(process.env['E2E_PORT'] ?? 8099);
const DEMO_HOST = `127.0.0.1:${PORT}`;
const DEMO_API = `http://${DEMO_HOST}/demo-api/v1`;
const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

async function expectAccessible(page: Page, what: string) {
  await page.waitForTimeout(350); // Mantine's transitions end before colours are measured.
  const result = await new AxeBuilder({ page }).withTags(WCAG_TAGS).analyze();
  const findings = result.violations.flatMap((v) => v.nodes.map((n) => `${what} · ${v.id} · ${n.target.join(' ')}`));
  expect(findings).toEqual([]);
}

async function openSalesEdit(page: Page, tab: string) {
  await signInAt(page, '/collection?search=Sales', 'admin');
  await page.getByRole('link', { name: 'Sales', exact: true }).first().click();
  await page.waitForURL(/\/collection\/[^/]+$/u);
  const collection = new URL(page.url()).pathname;
  await page.goto(`${collection}/edit/${tab}`);
  return collection;
}

test('admin adds a Web API connection, writes and tries an asset with a parameter, saves it; a Reader calls it', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  const stamp = Date.now();
  const collection = await openSalesEdit(page, 'connections');
  await expect(page.getByRole('link', { name: 'Demo API', exact: true })).toBeVisible();
  await expectAccessible(page, 'connections of both kinds');

  // The connection: the demo API's address, its loopback host allowed (the outbound guard refuses it otherwise).
  await page.getByRole('button', { name: 'New connection' }).click();
  const dialog = page.getByRole('dialog', { name: 'New connection' });
  await dialog.getByText('Web API', { exact: true }).click();
  const connectionName = `Demo copy ${stamp}`;
  await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill(connectionName);
  await dialog.getByRole('textbox', { name: /^Base URL/u }).fill(DEMO_API);
  await dialog.getByRole('combobox', { name: 'Allowed internal hosts' }).fill(DEMO_HOST);
  await dialog.getByRole('combobox', { name: 'Allowed internal hosts' }).press('Enter');
  await dialog.getByRole('button', { name: 'Test connection' }).click();
  await expect(dialog.getByText(/^Reached: /u)).toBeVisible();
  await expect(dialog.getByText(`Test: GET ${DEMO_API}`)).toBeVisible();
  await expectAccessible(page, 'new Web API connection dialog, tested');
  await dialog.getByRole('button', { name: 'Create connection' }).click();
  await expect(page.getByRole('heading', { level: 1, name: `Connection ${connectionName}` })).toBeVisible();
  await expect(page.getByText(DEMO_HOST, { exact: true })).toBeVisible();

  // An API key the demo API does not know: stored sealed, shown as asterisks.
  await page.getByRole('button', { name: 'Add credential' }).click();
  const credential = page.getByRole('dialog', { name: 'Add credential' });
  await credential.getByRole('textbox', { name: 'Name', exact: true }).fill('Wrong key');
  await credential.getByLabel(/^Key value/u).fill('not-the-demo-key');
  await expectAccessible(page, 'credential dialog');
  await credential.getByRole('button', { name: 'Add credential' }).click();
  const credentials = page.getByRole('region', { name: 'Credentials' });
  await expect(credentials.getByRole('cell', { name: 'Wrong key', exact: true })).toBeVisible();
  await expect(credentials.getByRole('cell', { name: '********', exact: true })).toBeVisible();
  await expect(page.getByText('not-the-demo-key')).toHaveCount(0);
  await expectAccessible(page, 'Web API connection');

  // The asset: on the new connection the upstream refuses the key, and Save waits for a successful Try.
  await page.goto(`${collection}/createAsset`);
  await expect(page.getByRole('heading', { level: 1, name: 'New data asset in Sales' })).toBeVisible();
  const assetName = `Indicators ${stamp}`;
  await page.getByRole('textbox', { name: 'Name', exact: true }).fill(assetName);
  await page.getByRole('combobox', { name: /^Connection/u }).click();
  await page.getByRole('option', { name: `${connectionName} (Web API)` }).click();
  await page.getByRole('textbox', { name: /^Path/u }).fill('/countries/{country}/indicators');
  await page.getByRole('textbox', { name: /^Where the rows are/u }).fill('data');
  await page.getByRole('button', { name: 'Define {country}' }).click();
  await page.getByRole('textbox', { name: 'Value of {country}' }).fill('FR');
  const save = page.getByRole('button', { name: 'Save', exact: true });
  const tryIt = page.getByRole('region', { name: 'Try', exact: true });
  await tryIt.getByRole('button', { name: 'Try', exact: true }).click();
  await expect(tryIt.getByText(/^The web API call failed/u)).toBeVisible();
  await expect(tryIt.getByText('HTTP 401').first()).toBeVisible();
  await expect(save).toBeDisabled();

  // On the demo's own connection (its key is right) the rows come, with the exchange and the key masked.
  await page.getByRole('combobox', { name: /^Connection/u }).click();
  await page.getByRole('option', { name: 'Demo API (Web API)' }).click();
  await expect(page.getByRole('combobox', { name: /^Credential/u })).toHaveValue('Demo key');
  await tryIt.getByRole('button', { name: 'Try', exact: true }).click();
  await expect(tryIt.getByRole('region', { name: 'Preview of the result' }).locator('tbody tr')).toHaveCount(10);
  await expect(tryIt.getByText('HTTP 200').first()).toBeVisible();
  await expect(tryIt.getByText(/X-Api-Key: \*{8}/u)).toBeVisible();
  await expectAccessible(page, 'asset editor after Try');
  await expect(save).toBeEnabled();
  await save.click();
  await expect(page.getByRole('heading', { level: 1, name: assetName })).toBeVisible();
  const assetPath = new URL(page.url()).pathname;

  // A Reader of Sales calls it.
  const readerContext = await browser.newContext();
  const reader = await readerContext.newPage();
  await signInAt(reader, `${assetPath}/call`, 'partner');
  await reader.getByRole('textbox', { name: 'country' }).fill('DE');
  await reader.getByRole('button', { name: 'Call', exact: true }).click();
  await expect(reader.getByText(/^10 rows$/u).first()).toBeVisible();
  await expect(
    reader
      .getByRole('region', { name: `Result of ${assetName}` })
      .getByText('EUR')
      .first(),
  ).toBeVisible();
  await readerContext.close();
});

test('developer mode shows a Web API call’s upstream exchanges, secrets masked', async ({ page }) => {
  await signInAt(page, '/data-source?search=Country%20indicators', 'analyst');
  await page.getByLabel('Developer mode').check();
  await page.getByRole('link', { name: 'Country indicators', exact: true }).first().click();
  await page.getByRole('link', { name: 'Call in developer mode' }).click();
  await page.getByRole('combobox', { name: 'Region' }).click();
  await page.getByRole('option', { name: 'Europe' }).click();
  await page.getByRole('combobox', { name: 'Country' }).click();
  await page.getByRole('option').first().click();
  await page.getByRole('button', { name: 'Call', exact: true }).click();
  const upstream = page.getByRole('region', { name: 'Upstream exchanges' });
  await expect(upstream.getByText('HTTP 200').first()).toBeVisible();
  await expect(page.getByRole('region', { name: 'Request definition' })).toContainText(
    '/countries/{country}/indicators',
  );
  await expect(page.getByRole('region', { name: 'SQL', exact: true })).toHaveCount(0);
  await upstream.getByRole('button').first().click();
  await expect(upstream.getByText(/X-Api-Key: \*{8}/u).first()).toBeVisible();
  await expectAccessible(page, 'developer-mode call of a Web API asset');
});

test('analyst calls the demo Web API asset with a dependent parameter and downloads CSV', async ({ page }) => {
  test.setTimeout(90_000);
  await signInAt(page, '/data-source', 'analyst');
  await page.getByRole('link', { name: 'Country indicators', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Country indicators' })).toBeVisible();
  await page.getByRole('link', { name: 'Call', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Call Country indicators' })).toBeVisible();

  // Region → country: the countries come from a SQL parameter data source that takes the chosen region.
  const country = page.getByRole('combobox', { name: 'Country' });
  await expect(country).toBeDisabled();
  await page.getByRole('combobox', { name: 'Region' }).click();
  await page.getByRole('option', { name: 'Europe', exact: true }).click();
  await expect(country).toBeEnabled();
  await country.click();
  await page.getByRole('option', { name: 'France', exact: true }).click();
  await expect(page).toHaveURL(/[?&]country=FR(&|$)/u);

  await page.getByRole('button', { name: 'Call', exact: true }).click();
  const grid = page.getByRole('region', { name: 'Result of Country indicators' });
  await expect(grid.locator('tbody tr').first()).toBeVisible();
  // A header shows the column's name, then its type.
  const headers = (await grid.locator('thead th').allInnerTexts()).map((text) => text.trim().split(/\s+/u)[0]);
  expect(headers).toEqual(expect.arrayContaining(['year', 'gdpUsdBillions', 'gdpPerPersonUsd']));

  const downloading = page.waitForEvent('download');
  // The whole result is a download job: started from the Download menu, polled, then the file is handed over.
  await page.getByRole('button', { name: 'Download', exact: true }).click();
  await page.getByRole('menuitem', { name: 'CSV', exact: true }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/\.csv$/u);
  const lines = (await readFile(await download.path(), 'utf8')).trim().split(/\r?\n/u);
  const header = (lines[0] ?? '').split(',');
  expect(header).toEqual(expect.arrayContaining(['year', 'gdpUsdBillions', 'gdpPerPersonUsd']));
  expect(header).not.toContain('gdpUsdBn'); // renamed by the asset's transformation
  // From the default year (2010) to the last (2025), newest first (the transformation's sort), every page read.
  const years = lines.slice(1).map((line) => Number(line.split(',')[header.indexOf('year')]));
  expect(years).toEqual(Array.from({ length: 16 }, (_, i) => 2025 - i));
});
