import { expect, signInAt, submitLoginForm, test } from './fixtures.ts';

test.describe('sign-in', () => {
  test('the administrator signs in through the real login page and lands back on the asked path', async ({ page }) => {
    await signInAt(page, '/management/user', 'admin');
    await expect(page).toHaveURL(/\/management\/user$/);
    const account = page.getByRole('button', { name: 'Account menu' });
    await expect(account).toBeVisible();
    await expect(account).toContainText('AA');

    await page.getByRole('button', { name: 'Administration' }).click();
    for (const entry of ['User Management', 'User Group Management', 'Cache Management', 'Log Management']) {
      await expect(page.getByRole('menuitem', { name: entry })).toBeVisible();
    }
  });

  test('the analyst is refused the user management page with the Unauthorised error page', async ({ page }) => {
    await signInAt(page, '/collection', 'analyst');
    await expect(page.getByRole('button', { name: 'Administration' })).toHaveCount(0);
    await page.goto('/management/user');
    await expect(page).toHaveURL(/\/error\?/);
    await expect(page.getByText('Unauthorised', { exact: true })).toBeVisible();
    await expect(page.getByText('You are not authorised to perform this action')).toBeVisible();
  });

  test('a returnUrl that would leave the origin (a tab before //) lands on home after sign-in', async ({ page }) => {
    await page.goto(`/login?returnUrl=${encodeURIComponent('/\t/example.com/phish')}`);
    await page.waitForURL(/\/oidc\/interaction\//);
    await submitLoginForm(page, 'admin');
    await page.waitForURL((url) => url.pathname === '/' && !url.search.includes('returnUrl'));
    expect(new URL(page.url()).hostname).toBe('localhost');
    await expect(page.getByRole('button', { name: 'Account menu' })).toBeVisible();
  });

  test('a wrong password keeps the user on the login page with a message', async ({ page }) => {
    await page.goto('/collection');
    await page.waitForURL(/\/oidc\/interaction\//);
    await submitLoginForm(page, 'admin', 'not-the-password');
    await expect(page.getByRole('alert')).toHaveText('Invalid username or password');
    await expect(page.getByLabel('Username')).toHaveValue('admin');
  });

  test('logout ends the session in the portal and at the provider', async ({ page }) => {
    await signInAt(page, '/tokens', 'partner');
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    // Logout returns home, which asks a signed-out visitor to sign in; the provider asks for the password again
    // instead of signing the user straight back in, so its session is gone too.
    await page.waitForURL(/\/oidc\/interaction\//);
    await expect(page.getByLabel('Password')).toBeVisible();
    // Nothing of the portal's session is left either: a protected page goes to sign-in as well.
    await page.goto('/tokens');
    await page.waitForURL(/\/oidc\/interaction\//);
    await expect(page.getByLabel('Password')).toBeVisible();
  });
});
