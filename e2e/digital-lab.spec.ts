import { expect, submitLoginForm, test } from './fixtures.ts';

// A partner reaches the Digital Lab from sign-in without typing a URL: they open Data Lab's address, sign in,
// and land in the Digital Lab (they are in the demo's Partners group, a DIGITAL_LAB_GROUPS group, and nothing
// else), where the assets shared with them lead to their call pages. Everyone else lands on the portal's home;
// an administrator finds the Digital Lab in the navigation.

test('a partner signs in at Data Lab and lands in the Digital Lab, with the assets shared with them', async ({
  page,
}) => {
  await page.goto('/');
  await page.waitForURL(/\/oidc\/interaction\//);
  await submitLoginForm(page, 'partner');
  await page.waitForURL((url) => url.pathname === '/digital-lab/tokens');
  await expect(page.getByRole('heading', { level: 1, name: 'Your tokens' })).toBeVisible();
  await expect(page.getByRole('banner').getByText('Digital Lab', { exact: true })).toBeVisible();

  // The shared assets lead on to their call pages, still in the Digital Lab.
  const shared = page.getByRole('region', { name: 'Data assets shared with you' });
  await shared.getByRole('link', { name: 'Orders by country' }).click();
  await page.waitForURL(/\/digital-lab\/data-asset\/[^/]+\/call$/);
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Orders by country');

  // The product name leads back to the partner's start, the Digital Lab.
  await page.getByRole('link', { name: 'Data Lab' }).first().click();
  await page.waitForURL((url) => url.pathname === '/digital-lab/tokens');
});

test("an analyst lands on the portal's home, which does not offer the Digital Lab", async ({ page }) => {
  await page.goto('/');
  await page.waitForURL(/\/oidc\/interaction\//);
  await submitLoginForm(page, 'analyst');
  await page.waitForURL((url) => url.pathname === '/');
  await expect(page.getByRole('heading', { name: 'What you can do' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Digital Lab' })).toHaveCount(
    0,
  );
});

test('an administrator reaches the Digital Lab through the navigation', async ({ page }) => {
  await page.goto('/');
  await page.waitForURL(/\/oidc\/interaction\//);
  await submitLoginForm(page, 'admin');
  await page.waitForURL((url) => url.pathname === '/');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Digital Lab' }).click();
  await page.waitForURL((url) => url.pathname === '/digital-lab/tokens');
  await expect(page.getByRole('heading', { level: 1, name: 'Your tokens' })).toBeVisible();
});
