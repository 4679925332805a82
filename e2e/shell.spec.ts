import { expect, signInAt, submitLoginForm, test } from './fixtures.ts';

test.describe('the portal shell', () => {
  test('a policy page is public and shows the navigation, the footer and a Login link', async ({ page }) => {
    await page.goto('/policy/contact-us');
    const header = page.getByRole('banner');
    await expect(header.getByRole('link', { name: 'Login', exact: true })).toBeVisible();
    await expect(header.getByRole('link', { name: 'Collections', exact: true })).toBeVisible();
    await expect(header.getByRole('link', { name: 'Tokens', exact: true })).toBeVisible();
    for (const link of ['Privacy policy', 'Terms and conditions', 'Cookie policy', 'Accessibility', 'Contact us']) {
      await expect(page.getByRole('contentinfo').getByRole('link', { name: link })).toBeVisible();
    }
    await expect(page.getByRole('contentinfo')).toContainText('©');
  });

  test('home, the error page and an unknown path ask a signed-out visitor to sign in first', async ({ page }) => {
    for (const path of ['/', '/error?errorSummary=Oops', '/no/such/page']) {
      await page.goto(path);
      await page.waitForURL(/\/oidc\/interaction\//);
    }
    await submitLoginForm(page, 'analyst');
    await page.waitForURL((url) => url.pathname === '/no/such/page');
    await expect(page.getByText('The requested resource was not found')).toBeVisible();
  });

  test('home says what the signed-in user can do, with links that open', async ({ page }) => {
    await signInAt(page, '/', 'analyst');
    const nav = page.getByRole('navigation', { name: 'Main' });
    for (const link of ['Collections', 'Tokens', 'My downloads'])
      await expect(nav.getByRole('link', { name: link, exact: true })).toBeVisible();
    const cards = page.getByRole('region', { name: 'What you can do' });
    await expect(cards).not.toContainText(/coming/i);
    // The analyst may create collections (the demo's Analysts group).
    await cards.getByRole('link', { name: 'New collection' }).click();
    await page.waitForURL((url) => url.pathname === '/collection/create');
    await page.goBack();
    await cards.getByRole('link', { name: 'All data assets' }).click();
    await page.waitForURL((url) => url.pathname === '/data-source');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  });

  test('a skip link is the first stop of the keyboard and leads past the navigation', async ({ page }) => {
    await signInAt(page, '/', 'analyst');
    await expect(page.getByRole('heading', { name: 'What you can do' })).toBeVisible();
    await page.keyboard.press('Tab');
    const skip = page.getByRole('link', { name: 'Skip to content' });
    await expect(skip).toBeFocused();
    await expect(skip).toBeInViewport();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('main')).toBeFocused();
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
    await signInAt(
      page,
      '/error?errorSummary=Upstream%20down&errorMessage=The%20warehouse%20did%20not%20answer',
      'admin',
    );
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
    await signInAt(page, '/no/such/page', 'admin');
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
    await signInAt(page, '/', 'analyst');
    const nav = page.getByRole('navigation', { name: 'Main' });
    await expect(nav.getByRole('link', { name: 'Collections', exact: true })).toBeVisible();
    await expect(nav.getByRole('link', { name: 'Data Assets', exact: true })).toHaveCount(0);
    const toggle = page.getByLabel('Developer mode');
    await toggle.check();
    await expect(nav.getByRole('link', { name: 'Data Assets', exact: true })).toBeVisible();
    await expect(nav.getByRole('link', { name: 'Playground', exact: true })).toBeVisible();
    await page.reload();
    await expect(page.getByLabel('Developer mode')).toBeChecked();
    await expect(nav.getByRole('link', { name: 'Playground', exact: true })).toBeVisible();
  });
});
