import type { Locator, Page } from '@playwright/test';
import { expect, signInAt, test } from './fixtures.ts';

// Where a parameter's values come from, in the portal: `analyst` (Editor of Sales) builds an asset whose second
// parameter's values come from a parameter data source that depends on the first, checks the dropdown as a caller
// will see it, saves; `partner` (Reader) calls it. And the demo's region → country asset opens in the same editor
// and saves unchanged.

async function openSalesAssets(page: Page) {
  await signInAt(page, '/collection?search=Sales', 'analyst');
  await page.getByRole('link', { name: 'Sales', exact: true }).first().click();
  await page.getByRole('tab', { name: /Data assets/ }).click();
}

async function choose(page: Page, combobox: Locator, option: string) {
  await combobox.click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

const card = (page: Page, name: string) => page.getByRole('article', { name: `Parameter ${name}` });

test('an editor takes a parameter’s values from a data asset depending on another, and a reader calls it', async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1440, height: 1000 });
  await openSalesAssets(page);
  await page.getByRole('link', { name: 'New data asset' }).first().click();
  const name = `Countries picked ${Date.now()}`;
  await page.getByRole('textbox', { name: 'Name' }).first().fill(name);
  await page.getByRole('textbox', { name: 'SQL' }).click();
  await page.keyboard.insertText('select code, name from countries where region_id = :region and code = :country');

  await page.getByRole('button', { name: 'Define :region' }).click();
  const region = card(page, 'region');
  await choose(page, region.getByRole('combobox', { name: 'Type of region' }), 'integer');
  await region.getByText('From a data asset', { exact: true }).click();
  await choose(page, region.getByRole('combobox', { name: 'Data asset of region' }), 'Regions');
  await choose(page, region.getByRole('combobox', { name: 'Value column of region' }), 'id');
  await choose(page, region.getByRole('combobox', { name: 'Label column of region' }), 'name');

  await page.getByRole('button', { name: 'Define :country' }).click();
  const country = card(page, 'country');
  await country.getByText('From a data asset', { exact: true }).click();
  await choose(page, country.getByRole('combobox', { name: 'Data asset of country' }), 'Countries by region');
  await country.getByRole('checkbox', { name: 'region' }).check();
  await expect(country.getByText('The columns show once region has a value')).toBeVisible();
  // region may not depend on country now: that would be a cycle, and the editor says so.
  await expect(region.getByRole('checkbox', { name: 'country' })).toBeDisabled();
  await expect(region.getByText(/Not offered: region → country → region would make a cycle/)).toBeVisible();

  // The live result: region's dropdown from Regions; choosing Europe fills country's from Countries by region.
  const regionLive = page.getByRole('region', { name: 'Live result of region' });
  const countryLive = page.getByRole('region', { name: 'Live result of country' });
  await expect(countryLive.getByRole('combobox', { name: 'country' })).toHaveAttribute(
    'placeholder',
    'Choose region first',
  );
  await choose(page, regionLive.getByRole('combobox', { name: 'region' }), 'Europe');
  await choose(page, country.getByRole('combobox', { name: 'Value column of country' }), 'code');
  await choose(page, country.getByRole('combobox', { name: 'Label column of country' }), 'name');
  await expect(countryLive.getByText('5 options for region = 1')).toBeVisible();
  await countryLive.getByRole('combobox', { name: 'country' }).click();
  const listbox = page.getByRole('listbox');
  await expect(listbox.getByRole('option')).toHaveText(['France', 'Germany', 'Netherlands', 'Spain', 'Sweden']);
  await listbox.getByRole('option', { name: 'France' }).click();
  const parametersSection = page.getByRole('region', { name: 'Parameters' });
  await parametersSection.screenshot({ path: 'test-results/parameter-sources-1440.png' });
  await page.setViewportSize({ width: 768, height: 1000 });
  await parametersSection.screenshot({ path: 'test-results/parameter-sources-768.png' });
  await page.setViewportSize({ width: 1440, height: 1000 });

  // The values chosen in the live results are the run's values.
  await expect(page.getByRole('textbox', { name: 'Value of :country' })).toHaveValue('FR');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page.getByRole('region', { name: 'Preview of the result' }).locator('tbody tr')).toHaveCount(1);
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  const assetPath = new URL(page.url()).pathname;

  const readerContext = await browser.newContext();
  const reader = await readerContext.newPage();
  await signInAt(reader, `${assetPath}/call`, 'partner');
  await choose(reader, reader.getByRole('combobox', { name: 'region' }), 'Europe');
  await choose(reader, reader.getByRole('combobox', { name: 'country' }), 'Spain');
  await reader.getByRole('button', { name: 'Call', exact: true }).click();
  await expect(reader.getByText(/^1 row$/u).first()).toBeVisible();
  await expect(reader.getByRole('cell', { name: 'Spain' })).toBeVisible();
  await readerContext.close();
});

test('the demo’s region → country asset opens in the editor and saves unchanged', async ({ page }) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 1440, height: 1000 });
  await openSalesAssets(page);
  const loaded = page.waitForResponse((r) => r.url().includes('/api/DataSource/GetByUid/') && r.ok());
  await page.getByRole('link', { name: 'Orders by country', exact: true }).first().click();
  await page.getByRole('link', { name: 'Edit' }).click();
  const before = (await (await loaded).json()) as { parameters: { id: number }[] };

  const country = card(page, 'country');
  await expect(country.getByRole('checkbox', { name: 'region' })).toBeChecked();
  await expect(country.getByRole('combobox', { name: 'Data asset of country' })).toHaveValue('Countries by region');
  await choose(page, page.getByRole('region', { name: 'Live result of region' }).getByRole('combobox'), 'Europe');
  await choose(page, page.getByRole('region', { name: 'Live result of country' }).getByRole('combobox'), 'Germany');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page.getByText(/Bound values/)).toBeVisible();
  const saved = page.waitForResponse((r) => r.request().method() === 'PUT' && r.url().includes('/api/SqlDataSource'));
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  const after = (await (await saved).json()) as { parameters: { id: number }[] };
  const definitions = (asset: { parameters: { id: number }[] }) =>
    JSON.stringify(asset.parameters.map(({ id: _id, ...definition }) => definition));
  expect(definitions(after)).toBe(definitions(before));
});
