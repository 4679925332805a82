import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, signInAt, test } from './fixtures.ts';

// the playground (developer mode) runs ad-hoc SQL on the demo shop and an HTTP request on the demo Web
// API, on connections of a collection the caller owns, and saves nothing; "Save as data asset" opens the editor with
// the draft.

const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

async function expectAccessible(page: Page, what: string) {
  await page.waitForTimeout(350);
  const result = await new AxeBuilder({ page }).withTags(WCAG_TAGS).analyze();
  const findings = result.violations.flatMap((v) => v.nodes.map((n) => `${what} · ${v.id} · ${n.target.join(' ')}`));
  expect(findings).toEqual([]);
}

test('the playground runs SQL on the demo shop and HTTP on the demo Web API, then keeps a draft as an asset', async ({
  page,
}) => {
  test.setTimeout(90_000);
  await signInAt(page, '/playground', 'admin');
  await expect(page.getByText('The playground is a developer-mode tool')).toBeVisible();
  await expectAccessible(page, 'playground outside developer mode');
  await page.getByRole('button', { name: 'Turn on developer mode' }).click();

  await page.getByRole('combobox', { name: 'Collection' }).click();
  await page.getByRole('option', { name: 'Sales', exact: true }).click();
  await page.getByRole('combobox', { name: /^Connection/u }).click();
  await page.getByRole('option', { name: 'Shop (SQLite)' }).click();
  await page.getByRole('textbox', { name: 'SQL' }).click();
  await page.keyboard.insertText('select id, total from orders where total >= :minTotal order by total desc limit 5');
  await page.getByRole('combobox', { name: 'Type of minTotal' }).click();
  await page.getByRole('option', { name: 'integer', exact: true }).click();
  await page.getByRole('textbox', { name: 'Value of :minTotal' }).fill('100');
  const result = page.getByRole('region', { name: 'Result', exact: true });
  await result.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(result.getByRole('region', { name: 'Preview of the result' }).locator('tbody tr')).toHaveCount(5);
  await expect(result.getByText(/Bound values/u)).toContainText('"minTotal":100');
  await expectAccessible(page, 'playground after a SQL run');

  await page.getByRole('combobox', { name: /^Connection/u }).click();
  await page.getByRole('option', { name: 'Demo API (Web API)' }).click();
  await page.getByRole('textbox', { name: /^Path/u }).fill('/countries/{country}/indicators');
  await page.getByRole('textbox', { name: /^Where the rows are/u }).fill('data');
  await page.getByText('Follow a next link', { exact: true }).click();
  await page.getByRole('textbox', { name: /^Where the next page/u }).fill('links.next');
  await page.getByRole('textbox', { name: 'Value of {country}' }).fill('SE');
  await result.getByRole('button', { name: 'Run', exact: true }).click();
  // 26 years, over three pages of 10: three upstream requests, the key masked in each.
  await expect(result.getByText('26 rows').first()).toBeVisible();
  await expect(result.getByRole('button', { name: /^Request: GET .*page=3/u })).toBeVisible();
  await result.getByRole('button', { name: /^Request: GET .*page=3/u }).click();
  await expect(result.getByText(/X-Api-Key: \*{8}/u).filter({ visible: true })).toHaveCount(1);
  await expect(result.getByText('SEK').first()).toBeVisible();
  await expectAccessible(page, 'playground after an HTTP run');

  await page.getByRole('button', { name: 'Save as data asset' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'New data asset in Sales' })).toBeVisible();
  await expect(page.getByRole('textbox', { name: /^Path/u })).toHaveValue('/countries/{country}/indicators');
  await expect(page.getByRole('textbox', { name: 'Label of country' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Save', exact: true })).toBeDisabled();
});
