import { expect, signInAt, test } from './fixtures.ts';

test.describe('the portal shell', () => {
  test('home is public and shows the navigation, the footer and a Login link', async ({ page }) => {
    await page.goto('/');
    const header = page.getByRole('banner');
    await expect(header.getByRole('link', { name: 'Login', exact: true })).toBeVisible();
    await expect(header.getByRole('link', { name: 'Collections', exact: true })).toBeVisible();
    await expect(header.getByRole('link', { name: 'Tokens', exact: true })).toBeVisible();
    for (const link of ['Privacy policy', 'Terms and conditions', 'Cookie policy', 'Accessibility', 'Contact us']) {
      await expect(page.getByRole('contentinfo').getByRole('link', { name: link })).toBeVisible();
    }
    await expect(page.getByRole('contentinfo')).toContainText('©');
  });

  test('policy pages are public', async ({ page }) => {
    await page.goto('/policy/cookie-policy');
    await expect(page).toHaveURL(/\/policy\/cookie-policy$/);
    await expect(page.getByRole('heading', { level: 1 })).toContainText(/cookie/i);
  });

  test('a signed-out visitor to a protected page is sent to sign in', async ({ page }) => {
    await page.goto('/collection');
    await page.waitForURL(/\/oidc\/interaction\//);
    await expect(page.getByLabel('Username')).toBeVisible();
  });

  test('the error page shows its query parameters and a Home button', async ({ page }) => {
    await page.goto('/error?errorSummary=Upstream%20down&errorMessage=The%20warehouse%20did%20not%20answer');
    await expect(page.getByText('Upstream down')).toBeVisible();
    await expect(page.getByText('The warehouse did not answer')).toBeVisible();
    await page
      .getByRole('link', { name: 'Home' })
      .or(page.getByRole('button', { name: 'Home' }))
      .first()
      .click();
    await expect(page).toHaveURL(/\/$/);
  });

  test('an unknown path shows the not-found page', async ({ page }) => {
    await page.goto('/no/such/page');
    await expect(page.getByText('The requested resource was not found')).toBeVisible();
  });

  test('below 768 px protected pages are refused but home is not, unless developer mode is on', async ({ page }) => {
    await signInAt(page, '/collection', 'admin');
    await page.setViewportSize({ width: 500, height: 900 });
    await expect(page.getByText('Mobile mode not supported')).toBeVisible();
    await expect(page.getByText('Please use a desktop or tablet device')).toBeVisible();

    await page.goto('/');
    await expect(page.getByText('Mobile mode not supported')).toHaveCount(0);

    await page.setViewportSize({ width: 1280, height: 900 });
    await page.getByRole('switch', { name: 'Developer mode' }).or(page.getByLabel('Developer mode')).first().check();
    await page.setViewportSize({ width: 500, height: 900 });
    await page.goto('/collection');
    await expect(page.getByText('Mobile mode not supported')).toHaveCount(0);
  });

  test('developer mode reveals Data Assets and Playground and is remembered across reloads', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('link', { name: 'Data Assets' })).toHaveCount(0);
    const toggle = page.getByLabel('Developer mode');
    await toggle.check();
    await expect(page.getByRole('link', { name: 'Data Assets' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Playground' })).toBeVisible();
    await page.reload();
    await expect(page.getByLabel('Developer mode')).toBeChecked();
    await expect(page.getByRole('link', { name: 'Playground' })).toBeVisible();
  });
});
