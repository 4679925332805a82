import { execFileSync } from 'node:child_process';
import AxeBuilder from '@axe-core/playwright';
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, signInAt, test } from './fixtures.ts';

// In Chromium: `partner` creates a personal access token in the Digital Lab, sees its secret
// once and copies it; a call to the calling layer with it returns the rows; after `partner` revokes it in the
// portal, the same call answers 401. The Digital Lab's call page shows the asset and its snippets. An Owner
// (`admin` owns Sales in the demo) creates a collection token in the collection's Tokens tab, and it reads Sales.

const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

/**
 * WCAG 2.2 AA on a state the route scan of accessibility.spec.ts does not reach (the secret, a dialog): the page's
 * own content, the layout being that scan's.
 */
async function expectAccessible(page: Page, selector = 'main') {
  await page.waitForTimeout(350); // Mantine's transitions end before colours are measured.
  const result = await new AxeBuilder({ page }).include(selector).withTags(WCAG_TAGS).analyze();
  expect(result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

/** A call to the calling layer with a Data Lab token, as a program would make it. */
const callWith = (request: APIRequestContext, uid: string, secret: string) =>
  request.post(`/data/v1/${uid}?format=json`, {
    headers: { Authorization: `Bearer ${secret}` },
    data: {},
  });

/** The same call with curl, as the snippet a partner copies would make it: the status and the body. */
function curlWith(origin: string, uid: string, secret: string): { status: number; body: string } {
  const out = execFileSync(
    'curl',
    [
      '-sS',
      '-X',
      'POST',
      '-H',
      `Authorization: Bearer ${secret}`,
      '-H',
      'Content-Type: application/json',
      '--data',
      '{}',
      '-w',
      '\n%{http_code}',
      `${origin}/data/v1/${encodeURIComponent(uid)}?format=json`,
    ],
    { encoding: 'utf8' },
  );
  const cut = out.lastIndexOf('\n');
  return { status: Number(out.slice(cut + 1)), body: out.slice(0, cut) };
}

/** The token's secret from the page that shows it once. */
async function revealedSecret(page: Page): Promise<string> {
  await expect(page.getByText('Copy your token now')).toBeVisible();
  const secret = (await page.getByTestId('new-token-secret').textContent())?.trim() ?? '';
  expect(secret).toMatch(/^dl[pc]_[0-9A-Za-z]{46}$/);
  return secret;
}

test('a partner creates a token in the Digital Lab, calls with it, revokes it and is refused', async ({
  page,
  context,
}) => {
  test.setTimeout(90_000);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await signInAt(page, '/digital-lab/tokens/createPAT', 'partner');
  const name = `Partner feed ${Date.now()}`;
  await page.getByRole('textbox', { name: 'Name' }).fill(name);
  // The partner reads Sales only: it is the one collection offered, chosen as Reader.
  await expect(page.getByRole('combobox', { name: 'Token role on Sales' })).toHaveValue('Reader');
  await page.getByRole('button', { name: 'Create token' }).click();

  const secret = await revealedSecret(page);
  await expectAccessible(page);
  await page.getByRole('button', { name: 'Copy token' }).click();
  await expect(page.getByRole('button', { name: 'Copied' })).toBeVisible();
  // A string: this project's e2e code is type-checked without the DOM library.
  expect(await page.evaluate('navigator.clipboard.readText()')).toBe(secret);

  // Shown once: the list names the token by its hint and nowhere holds the secret.
  await page.getByRole('button', { name: 'Done' }).click();
  await page.waitForURL('**/digital-lab/tokens');
  const row = page.getByRole('row').filter({ hasText: name });
  await expect(row).toContainText(secret.slice(0, 10));
  await expect(row).toContainText('Active');
  expect(await page.content()).not.toContain(secret);

  // The Digital Lab's call page: the asset, its form, and snippets with a placeholder instead of any token.
  await page.getByRole('link', { name: 'Call Regions', exact: true }).click();
  await page.waitForURL(/\/digital-lab\/data-asset\/[^/]+\/call$/);
  const uid = decodeURIComponent(new URL(page.url()).pathname.split('/')[3] ?? '');
  await expect(page.getByRole('heading', { level: 1, name: 'Call Regions' })).toBeVisible();
  const snippets = page.getByRole('region', { name: 'Call it from a program' });
  await expect(snippets).toContainText(`/data/v1/${uid}?format=json`);
  await expect(snippets).toContainText("-H 'Authorization: Bearer <YOUR_TOKEN>'");
  await snippets.getByRole('tab', { name: 'Python' }).click();
  await expect(snippets).toContainText('TOKEN = "<YOUR_TOKEN>"');
  expect(await page.content()).not.toContain(secret);
  // No way into the portal's management screens from the Digital Lab.
  await expect(page.locator('a[href^="/collection"], a[href^="/management"], a[href^="/data-source"]')).toHaveCount(0);

  const origin = new URL(page.url()).origin;
  const called = curlWith(origin, uid, secret);
  expect(called.status).toBe(200);
  const result = JSON.parse(called.body) as { rows: unknown[] };
  expect(result.rows.length).toBeGreaterThan(0);

  await page.getByRole('link', { name: 'Your tokens' }).first().click();
  await page.waitForURL('**/digital-lab/tokens');
  await page.getByRole('button', { name: `Revoke ${name}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Revoke token' });
  await expect(dialog).toContainText('401 Unauthenticated from their very next call');
  await expectAccessible(page, '[role="dialog"]');
  await dialog.getByRole('button', { name: 'Revoke token' }).click();
  await expect(page.getByRole('row').filter({ hasText: name })).toContainText('Revoked');

  expect(curlWith(origin, uid, secret).status).toBe(401);
});

test('an Owner creates a collection token in the Tokens tab and it reads the collection', async ({ page }) => {
  test.setTimeout(90_000);
  await signInAt(page, '/collection?search=Sales', 'admin');
  await page.getByRole('link', { name: 'Sales', exact: true }).first().click();
  await page.waitForURL(/\/collection\/[^/]+$/);
  await page.getByRole('tab', { name: 'Tokens' }).click();
  await page.waitForURL(/\/collection\/[^/]+\/tokens$/);

  const name = `Reporting ${Date.now()}`;
  await page.getByRole('button', { name: 'New collection token' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'New collection token for Sales' });
  await dialog.getByRole('textbox', { name: 'Name' }).fill(name);
  await dialog.getByRole('radio', { name: '7 days' }).check();
  await expectAccessible(page, '[role="dialog"]');
  await dialog.getByRole('button', { name: 'Create token' }).click();
  const secret = await revealedSecret(page);
  expect(secret.startsWith('dlc_')).toBe(true);
  await dialog.getByRole('button', { name: 'Done' }).click();

  const row = page.getByRole('table', { name: 'Tokens of Sales' }).getByRole('row').filter({ hasText: name });
  await expect(row).toContainText('Reader');
  await expect(row).toContainText('Active');

  // It reads the collection's assets: the Sales asset list through the management API, then a call.
  const assets = await page.request.get('/api/DataSource/GetAll?search=Regions', {
    headers: { Authorization: `Bearer ${secret}` },
  });
  expect(assets.status()).toBe(200);
  const [asset] = ((await assets.json()) as { items: { uid: string; name: string }[] }).items.filter(
    (item) => item.name === 'Regions',
  );
  expect(asset).toBeDefined();
  expect((await callWith(page.request, asset?.uid ?? '', secret)).status()).toBe(200);
});
