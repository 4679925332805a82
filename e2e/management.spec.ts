import { expect, signInAt, test } from './fixtures.ts';

// Against the real server: groups renamed on their Details tab (leaving unsaved changes
// asks first), a nesting picker that offers no cycle, a sortable user list, and a deactivated user
// whose open session ends with "Sign in again", which brings them back once reactivated.

test('a group is renamed on its Details tab, and leaving unsaved changes asks first', async ({ page }) => {
  const stamp = Date.now();
  await signInAt(page, '/management/user-group/create', 'admin');
  await page.getByRole('textbox', { name: 'Name' }).fill(`E2E group ${stamp}`);
  await page.getByRole('button', { name: 'Create group' }).click();
  await page.waitForURL(/\/management\/user-group\/\d+\/members$/);
  const groupPath = new URL(page.url()).pathname.replace(/\/members$/, '');

  await page.getByRole('tab', { name: /Details/ }).click();
  await page.waitForURL(`**${groupPath}/details`);
  await page.getByRole('textbox', { name: 'Name' }).fill(`E2E renamed ${stamp}`);
  await page.getByRole('tab', { name: /Members/ }).click();
  const leave = page.getByRole('dialog', { name: 'Leave without saving?' });
  await expect(leave).toBeVisible();
  await leave.getByRole('button', { name: 'Stay on this page' }).click();
  await expect(page).toHaveURL(new RegExp(`${groupPath}/details$`));

  await page.getByRole('textbox', { name: 'Description' }).fill('Renamed by the management end-to-end test');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByRole('heading', { level: 1, name: `E2E renamed ${stamp}` })).toBeVisible();
  await expect(page.getByText('Renamed by the management end-to-end test').first()).toBeVisible();
  // Saved: switching tabs no longer asks.
  await page.getByRole('tab', { name: /Members/ }).click();
  await expect(page).toHaveURL(new RegExp(`${groupPath}/members$`));
});

test('the nesting picker never offers a group that would make a cycle', async ({ page }) => {
  await signInAt(page, '/management/user-groups?search=Analysts', 'admin');
  await page.getByRole('link', { name: 'Analysts', exact: true }).click();
  await page.getByRole('tab', { name: /Child groups/ }).click();
  // Analysts is nested in Staff: nesting Staff in Analysts would be a cycle.
  await page.getByRole('combobox', { name: 'Nest a group in this one' }).click();
  await page.keyboard.type('Staff');
  await expect(page.getByText('Nothing matches')).toBeVisible();
  await expect(page.getByRole('option', { name: 'Staff' })).toHaveCount(0);
});

test('users sort by column on the server, kept in the URL', async ({ page }) => {
  await signInAt(page, '/management/user', 'admin');
  const table = page.getByRole('table', { name: 'Users' });
  await table.getByRole('button', { name: /Username/ }).click();
  await table.getByRole('button', { name: /Username/ }).click();
  await expect(page).toHaveURL(/\/management\/user\?sort=username&dir=desc$/);
  await expect(table.getByRole('row').nth(1)).toContainText('partner');
  await page.reload();
  await expect(page.getByRole('table', { name: 'Users' }).getByRole('row').nth(1)).toContainText('partner');
});

test('a deactivated user sees "Sign in again" instead of a dead end, and it brings them back once reactivated', async ({
  page,
  browser,
}) => {
  test.setTimeout(90_000);
  const analystContext = await browser.newContext();
  const analyst = await analystContext.newPage();
  await signInAt(analyst, '/collection', 'analyst');
  await expect(analyst.getByRole('heading', { level: 1, name: 'Collections' })).toBeVisible();

  await signInAt(page, '/management/user?search=analyst', 'admin');
  const setActive = async (action: 'Deactivate' | 'Reactivate') => {
    await page.getByRole('button', { name: 'Details of Alan Analyst' }).click();
    await page.getByRole('dialog').getByRole('button', { name: action }).click();
    const confirm = page.getByRole('dialog', { name: `${action} user` });
    await confirm.getByRole('button', { name: action }).click();
    await expect(confirm).toBeHidden();
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog')).toHaveCount(0);
  };
  let isDeactivated = false;
  try {
    await setActive('Deactivate');
    isDeactivated = true;
    // The analyst's next call is refused (401): the page says the session has ended, without the avatar.
    await analyst.goto('/collection?search=Sales');
    await expect(analyst.getByRole('heading', { level: 1, name: 'Your session has ended' })).toBeVisible();
    await expect(analyst.getByRole('button', { name: 'Account menu' })).toHaveCount(0);
    await expect(analyst.getByRole('banner').getByRole('button', { name: 'Sign in again' })).toBeVisible();
  } finally {
    if (isDeactivated) await setActive('Reactivate');
  }

  // Sign in again starts sign-in (the provider's session answers at once) and comes back to the same list.
  await analyst.getByRole('main').getByRole('button', { name: 'Sign in again' }).click();
  await analyst.waitForURL(/\/auth\/token/);
  await analyst.waitForURL((url) => `${url.pathname}${url.search}` === '/collection?search=Sales');
  await expect(analyst.getByRole('link', { name: 'Sales' })).toBeVisible();
  await expect(analyst.getByRole('button', { name: 'Account menu' })).toBeVisible();
  await analystContext.close();
});
