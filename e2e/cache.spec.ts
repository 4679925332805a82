import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, signInAt, test } from './fixtures.ts';

// Against the real server: the administrator calls a demo asset whose results are cached, finds the
// entry on /management/cache, looks at it in the result grid, removes it, calls again and purges the cache.

const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

async function violations(page: Page, selector?: string): Promise<string[]> {
  await page.waitForTimeout(350); // Mantine fades content in; axe measures colours as painted
  const builder = new AxeBuilder({ page }).withTags(WCAG_TAGS);
  const result = await (selector ? builder.include(selector) : builder).analyze();
  return result.violations.flatMap((v) => v.nodes.map((node) => `${v.id} ${node.target.join(' ')}`));
}

/** Calls the demo's Regions asset from its call screen (its results are cached for five minutes). */
async function callRegions(page: Page) {
  await page.goto('/data-source');
  await page.getByRole('link', { name: 'Regions', exact: true }).first().click();
  await expect(page.getByRole('heading', { level: 1, name: 'Regions' })).toBeVisible();
  await page.getByRole('link', { name: 'Call', exact: true }).click();
  await page.getByRole('button', { name: 'Call', exact: true }).click();
  await expect(page.getByRole('region', { name: 'Result of Regions' }).locator('tbody tr').first()).toBeVisible();
}

/** Other specs call Regions too (several versions of it, cached apart): the test starts from an empty cache. */
async function startEmpty(page: Page) {
  await page.goto('/management/cache');
  const empty = page.getByText('The cache is empty');
  await expect(empty.or(page.getByRole('table', { name: 'Cache entries' })).first()).toBeVisible();
  if (await empty.isVisible()) return;
  await page.getByRole('button', { name: 'Purge all' }).click();
  await page.getByRole('dialog', { name: 'Purge the cache' }).getByRole('button', { name: 'Purge all' }).click();
  await expect(empty).toBeVisible();
}

test('the administrator finds a cached call, views it, removes it and purges the cache', async ({ page }) => {
  test.setTimeout(150_000);
  await signInAt(page, '/data-source', 'admin');
  await startEmpty(page);
  await callRegions(page);

  await page.goto('/management/cache');
  const table = page.getByRole('table', { name: 'Cache entries' });
  const row = table.getByRole('row').filter({ hasText: 'Regions' });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('Results');
  expect(await violations(page)).toEqual([]);

  await row.getByRole('button', { name: 'View Regions' }).click();
  const drawer = page.getByRole('dialog', { name: 'Results of Regions' });
  const grid = drawer.getByRole('region', { name: 'Cached result of Regions' });
  await expect(grid.locator('tbody tr').first()).toBeVisible();
  expect(await violations(page, '[role="dialog"]')).toEqual([]);
  await page.screenshot({ path: 'test-results/cache-value.png' });
  await page.keyboard.press('Escape');
  await expect(drawer).toBeHidden();

  await row.getByRole('button', { name: 'Remove Regions' }).click();
  const confirmRemove = page.getByRole('dialog', { name: 'Remove cache entry' });
  await expect(confirmRemove).toContainText('The next identical call runs against the data source again');
  await confirmRemove.getByRole('button', { name: 'Remove', exact: true }).click();
  await expect(table.getByRole('row').filter({ hasText: 'Regions' })).toHaveCount(0);

  await callRegions(page);
  await page.goto('/management/cache');
  await expect(table.getByRole('row').filter({ hasText: 'Regions' })).toHaveCount(1);
  await page.screenshot({ path: 'test-results/cache-list.png', fullPage: true });
  await page.getByRole('button', { name: 'Purge all' }).click();
  const confirmPurge = page.getByRole('dialog', { name: 'Purge the cache' });
  await expect(confirmPurge).toContainText('will be removed, on every server instance');
  await confirmPurge.getByRole('button', { name: 'Purge all' }).click();
  await expect(page.getByText('The cache is empty')).toBeVisible();
  expect(await violations(page)).toEqual([]);
});
