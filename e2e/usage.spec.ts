import AxeBuilder from '@axe-core/playwright';
import type { Browser, Locator, Page } from '@playwright/test';
import { expect, signInAt, test } from './fixtures.ts';

// Against the real server: `analyst` (an Editor of Sales) calls the demo's Regions asset a few
// times from its call screen; usage records are flushed every USAGE_FLUSH_MS (1 s by default) and the rollups the
// summaries read every USAGE_ROLLUP_FLUSH_MS (30 s by default, 5 s for this suite: playwright.config.ts), so the asset page is polled until they show. Then the
// administrator sees those calls on /management/usage, in the collection's Usage tab and on the asset's page, in the
// totals and in the tables.

const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];
const CALLS = 3;

async function violations(page: Page): Promise<string[]> {
  await page.waitForTimeout(350); // Mantine fades content in; axe measures colours as painted
  const result = await new AxeBuilder({ page }).withTags(WCAG_TAGS).analyze();
  return result.violations.flatMap((v) => v.nodes.map((node) => `${v.id} ${node.target.join(' ')}`));
}

/** The number in a table row's Calls column. */
async function callsIn(row: Locator): Promise<number> {
  const cells = await row.getByRole('cell').allTextContents();
  // Name (and collection) first, then Calls.
  const numeric = cells.map((text) => text.replace(/,/g, '')).find((text) => /^\d+$/.test(text));
  return Number(numeric);
}

/** The value of one of the period's totals. */
async function total(page: Page, name: string): Promise<number> {
  const value = await page
    .locator('dt', { hasText: new RegExp(`^${name}$`) })
    .locator('+ dd')
    .textContent();
  return Number((value ?? '').replace(/,/g, ''));
}

/** Opens a page in a context of its own, its CSP violations and page errors counted with the test's. */
async function pageOfItsOwn(browser: Browser, problems: string[]): Promise<Page> {
  const other = await (await browser.newContext()).newPage();
  other.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy|Refused to/i.test(message.text()))
      problems.push(message.text());
  });
  other.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  return other;
}

test('calls show in the usage overview, the collection Usage tab and the asset page', async ({
  page,
  browser,
  pageProblems,
}) => {
  test.setTimeout(240_000);
  const analyst = await pageOfItsOwn(browser, pageProblems);
  await signInAt(analyst, '/data-source', 'analyst');
  await analyst.getByRole('link', { name: 'Regions', exact: true }).first().click();
  await expect(analyst.getByRole('heading', { level: 1, name: 'Regions' })).toBeVisible();
  const assetPath = new URL(analyst.url()).pathname;
  await analyst.getByRole('link', { name: 'Call', exact: true }).click();
  for (let call = 0; call < CALLS; call += 1) {
    const answered = analyst.waitForResponse(
      (response) => response.request().method() === 'POST' && response.url().includes('/data/'),
    );
    await analyst.getByRole('button', { name: 'Call', exact: true }).click();
    expect((await answered).status()).toBe(200);
  }
  await expect(analyst.getByRole('region', { name: 'Result of Regions' }).locator('tbody tr').first()).toBeVisible();

  // The analyst, an Editor of Sales, sees the asset's usage on its page once the records are flushed.
  const usage = analyst.getByRole('region', { name: 'Usage' });
  const analystRow = usage.getByRole('table', { name: 'Top users' }).getByRole('row').filter({ hasText: 'analyst' });
  await expect(async () => {
    await analyst.goto(`${assetPath}?period=24h`);
    await expect(analystRow).toHaveCount(1, { timeout: 10_000 });
    expect(await callsIn(analystRow)).toBeGreaterThanOrEqual(CALLS);
  }).toPass({ timeout: 60_000 });
  await usage.scrollIntoViewIfNeeded();
  await analyst.screenshot({ path: 'test-results/usage-asset.png', fullPage: true });
  expect(await violations(analyst)).toEqual([]);
  await analyst.context().close();

  // The administrator: the overview lists Regions with at least those calls, and the analyst among the users.
  await signInAt(page, '/management/usage?period=24h', 'admin');
  await expect(page.getByRole('heading', { level: 1, name: 'Usage' })).toBeVisible();
  const sources = page.getByRole('table', { name: 'Top data sources' });
  const regions = sources.getByRole('row').filter({ has: page.getByRole('link', { name: 'Regions', exact: true }) });
  await expect(regions).toHaveCount(1);
  expect(await callsIn(regions)).toBeGreaterThanOrEqual(CALLS);
  expect(await total(page, 'Calls')).toBeGreaterThanOrEqual(CALLS);
  const analystUsage = page.getByRole('table', { name: 'Top users' }).getByRole('row').filter({ hasText: 'analyst' });
  expect(await callsIn(analystUsage)).toBeGreaterThanOrEqual(CALLS);
  // The chart's text alternative counts them too.
  await expect(page.getByRole('figure', { name: 'Calls and errors' })).toContainText(/\d+ calls/);
  await expect(page.locator('.recharts-surface').first()).toBeVisible();
  await page.screenshot({ path: 'test-results/usage-overview.png', fullPage: true });
  expect(await violations(page)).toEqual([]);

  // The collection's Usage tab, reached from the overview's link.
  await regions.getByRole('link', { name: 'Sales' }).click();
  await page.waitForURL(/\/collection\/[^/]+\/usage\?period=24h$|\/collection\/[^/]+\/usage$/);
  await expect(page.getByRole('tab', { name: /Usage/ })).toHaveAttribute('aria-selected', 'true');
  const tabSources = page.getByRole('table', { name: 'Top data sources' });
  // The demo's Regions asset itself (other specs add assets whose names start with 'Regions').
  const regionsRow = (table: typeof tabSources) =>
    table.getByRole('row').filter({ has: page.getByRole('link', { name: 'Regions', exact: true }) });
  const tabRegions = regionsRow(tabSources);
  await expect(tabRegions).toHaveCount(1);
  expect(await callsIn(tabRegions)).toBeGreaterThanOrEqual(CALLS);
  await page.screenshot({ path: 'test-results/usage-collection.png', fullPage: true });
  expect(await violations(page)).toEqual([]);

  // Another period is another query: the last 90 days, by week, still hold the calls.
  await page.getByRole('radiogroup', { name: 'Period' }).getByText('Last 90 days').click();
  await expect(page).toHaveURL(/period=90d/);
  await expect(regionsRow(tabSources)).toHaveCount(1);
  expect(await total(page, 'Calls')).toBeGreaterThanOrEqual(CALLS);
});

test("a collection's Reader is shown no Usage tab", async ({ page }) => {
  test.setTimeout(90_000);
  // `partner` holds Reader on Sales (the demo's roles).
  await signInAt(page, '/collection', 'partner');
  await page.getByRole('link', { name: 'Sales', exact: true }).first().click();
  await expect(page.getByRole('tab', { name: /Overview/ })).toBeVisible();
  await expect(page.getByRole('tab', { name: /Usage/ })).toHaveCount(0);
});
