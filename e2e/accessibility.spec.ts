import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, submitLoginForm, test } from './fixtures.ts';

// WCAG 2.2 AA on every route of the router: axe-core runs on each page once it has settled, signed out for
// the policy pages and the provider's sign-in page, signed in as the administrator for the portal and
// management, and as the partner for the Digital Lab. Any WCAG violation fails the test with the rule, the
// element and the numbers; so does any serious or critical finding of axe's best practices, and any landmark
// finding (one main, one banner, the footer beside them, none inside another landmark, overlays included).

const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];
const SERIOUS = new Set(['serious', 'critical']);
/** One violation on one element, as a line that says where, which rule and why. */
type Finding = string;

/** Waits until the page shows its content: the main heading, no loader, no request in flight. */
async function settle(page: Page) {
  await page.waitForLoadState('networkidle');
  await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
  await expect(page.locator('.mantine-Loader-root')).toHaveCount(0);
  // Mantine fades screens in; axe measures colours as painted, so let transitions end.
  await page.waitForTimeout(350);
}

async function scan(page: Page, path: string): Promise<Finding[]> {
  const result = await new AxeBuilder({ page }).withTags([...WCAG_TAGS, 'best-practice']).analyze();
  const counts = (violation: (typeof result.violations)[number]) =>
    violation.tags.some((tag) => WCAG_TAGS.includes(tag)) ||
    SERIOUS.has(violation.impact ?? '') ||
    violation.id.startsWith('landmark-');
  return result.violations.filter(counts).flatMap((violation) =>
    violation.nodes.map((node) => {
      const why = (node.failureSummary ?? '').replace(/\s+/gu, ' ').replace(/^Fix (any|all) of the following: /u, '');
      return `${path} · ${violation.id} · ${node.target.join(' ')} · ${why}`;
    }),
  );
}

async function visitAndScan(page: Page, path: string): Promise<Finding[]> {
  await page.goto(path);
  await settle(page);
  return scan(page, path);
}

const PUBLIC_PATHS = [
  '/policy/terms-and-conditions',
  '/policy/private-policy',
  '/policy/cookie-policy',
  '/policy/accessibility',
  '/policy/contact-us',
];

test('the public pages meet WCAG 2.2 AA', async ({ page }) => {
  test.setTimeout(120_000);
  const findings: Finding[] = [];
  for (const path of PUBLIC_PATHS) findings.push(...(await visitAndScan(page, path)));
  expect(findings).toEqual([]);
});

test("the built-in provider's sign-in page meets WCAG 2.2 AA, with and without its error", async ({ page }) => {
  const findings: Finding[] = [];
  await page.goto('/collection');
  await page.waitForURL(/\/oidc\/interaction\//);
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  findings.push(...(await scan(page, '/oidc/interaction/…')));
  await submitLoginForm(page, 'admin', 'not-the-password');
  await expect(page.getByRole('alert')).toBeVisible();
  findings.push(...(await scan(page, '/oidc/interaction/… (wrong password)')));
  expect(findings).toEqual([]);
});

/** The uid of a demo collection, found the way a user would: through the list. */
async function demoCollectionPath(page: Page): Promise<string> {
  await page.goto('/collection?search=Sales');
  await page.getByRole('link', { name: 'Sales', exact: true }).first().click();
  await page.waitForURL(/\/collection\/[^/]+$/);
  return new URL(page.url()).pathname;
}

/** The path of a demo data asset, found through the asset list. */
async function demoAssetPath(page: Page): Promise<string> {
  await page.goto('/data-source?search=Orders');
  await page.getByRole('link', { name: 'Orders by country', exact: true }).first().click();
  await page.waitForURL(/\/data-source\/[^/]+$/);
  return new URL(page.url()).pathname;
}

async function demoGroupPath(page: Page): Promise<string> {
  await page.goto('/management/user-groups?search=Analysts');
  await page.getByRole('link', { name: 'Analysts', exact: true }).first().click();
  await page.waitForURL(/\/management\/user-group\/\d+\/members$/);
  return new URL(page.url()).pathname.replace(/\/members$/, '');
}

async function signInAsAdministrator(page: Page) {
  await page.goto('/login?returnUrl=%2Fcollection');
  await page.waitForURL(/\/oidc\/interaction\//);
  await submitLoginForm(page, 'admin');
  await page.waitForURL((url) => url.pathname === '/collection');
}

// Three tests, each well inside its time on a slow machine: the portal's pages (and a call's result), a
// collection's screens, then the management and other areas (and the overlays).
test('every signed-in portal route meets WCAG 2.2 AA for the administrator', async ({ page }) => {
  test.setTimeout(420_000);
  await signInAsAdministrator(page);
  const asset = await demoAssetPath(page);
  const paths = [
    '/',
    '/error?errorSummary=Unauthorised&errorMessage=You%20are%20not%20authorised%20to%20perform%20this%20action',
    '/no/such/page',
    '/data-source',
    asset,
    `${asset}/call`,
    `${asset}/call-dev-mode`,
    '/collection',
    '/collection/create',
    '/tokens',
    '/tokens/createPAT',
    '/downloads',
  ];
  const findings: Finding[] = [];
  for (const path of paths) findings.push(...(await visitAndScan(page, path)));

  // A call's result: the form filled in from the URL, the grid, its notices and the developer-mode details.
  await page.goto(`${asset}/call-dev-mode?region=1&country=DE&country=FR`);
  await settle(page);
  await page.getByRole('button', { name: 'Call', exact: true }).click();
  await expect(page.getByRole('region', { name: 'Raw reply' })).toBeVisible();
  await page.waitForTimeout(350);
  findings.push(...(await scan(page, `${asset}/call-dev-mode (with a result)`)));
  expect(findings).toEqual([]);
});

test("every route of a collection's screens meets WCAG 2.2 AA for the administrator", async ({ page }) => {
  test.setTimeout(420_000);
  await signInAsAdministrator(page);
  const collection = await demoCollectionPath(page);
  const asset = await demoAssetPath(page);
  const paths = [
    collection,
    `${collection}/overview`,
    `${collection}/connections`,
    `${collection}/access`,
    `${collection}/tokens`,
    `${collection}/usage`,
    `${collection}/edit`,
    `${collection}/edit/data-assets`,
    `${collection}/edit/connections`,
    `${collection}/edit/access`,
    `${collection}/edit/tokens`,
    `${collection}/edit/data-asset`,
    `${collection}/edit/data-asset/${asset.split('/').pop() ?? ''}`,
    `${collection}/createAsset`,
    `${collection}/edit/connection/Shop`,
  ];
  const findings: Finding[] = [];
  for (const path of paths) findings.push(...(await visitAndScan(page, path)));
  expect(findings).toEqual([]);
});

test('every management, playground and Digital Lab route meets WCAG 2.2 AA for the administrator', async ({ page }) => {
  test.setTimeout(420_000);
  await signInAsAdministrator(page);
  const group = await demoGroupPath(page);
  const asset = await demoAssetPath(page);
  const paths = [
    '/management/user',
    '/management/user-groups',
    '/management/user-group/create',
    `${group}/members`,
    `${group}/groups`,
    `${group}/data-roles`,
    `${group}/hierarchy`,
    `${group}/details`,
    '/management/cache',
    '/management/logs',
    '/management/usage',
    '/playground',
    '/policy/accessibility',
    '/digital-lab/tokens',
    '/digital-lab/tokens/createPAT',
    `/digital-lab${asset.replace('/data-source/', '/data-asset/')}/call`,
  ];
  const findings: Finding[] = [];
  for (const path of paths) findings.push(...(await visitAndScan(page, path)));

  // Overlays too: a user's details drawer and a confirmation.
  findings.push(...(await visitAndScan(page, '/management/user?search=analyst')));
  await page
    .getByRole('button', { name: /^Details of / })
    .first()
    .click();
  await expect(page.getByRole('dialog')).toBeVisible();
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(350);
  findings.push(...(await scan(page, '/management/user (details drawer)')));
  await page.getByRole('dialog').getByRole('button', { name: 'Deactivate' }).click();
  await expect(page.getByRole('dialog', { name: 'Deactivate user' })).toBeVisible();
  await page.waitForTimeout(350);
  findings.push(...(await scan(page, '/management/user (confirmation)')));
  expect(findings).toEqual([]);
});

test('every Digital Lab route meets WCAG 2.2 AA for the partner who lands there', async ({ page }) => {
  test.setTimeout(240_000);
  await page.goto('/');
  await page.waitForURL(/\/oidc\/interaction\//);
  await submitLoginForm(page, 'partner');
  await page.waitForURL((url) => url.pathname === '/digital-lab/tokens');
  await page.getByRole('link', { name: 'Orders by country' }).click();
  await page.waitForURL(/\/digital-lab\/data-asset\/[^/]+\/call$/);
  const call = new URL(page.url()).pathname;
  const findings: Finding[] = [];
  for (const path of ['/digital-lab/tokens', '/digital-lab/tokens/createPAT', call, '/digital-lab/no/such/page'])
    findings.push(...(await visitAndScan(page, path)));
  expect(findings).toEqual([]);
});
