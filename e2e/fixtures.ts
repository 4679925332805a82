import { expect, test as base, type Page } from '@playwright/test';

// Shared steps of the end-to-end specs: signing in through the built-in provider's real login page,
// and a guard that fails a test on any Content-Security-Policy violation or uncaught page error.

export const DEMO_PASSWORD = 'datalab';

/** Fills the provider's login form; the page must already show it. */
export async function submitLoginForm(page: Page, username: string, password = DEMO_PASSWORD) {
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** Opens a protected path signed out, signs in on the way, and waits to land back on it. */
export async function signInAt(page: Page, path: string, username: string) {
  await page.goto(path);
  await page.waitForURL(/\/oidc\/interaction\//);
  await submitLoginForm(page, username);
  await page.waitForURL((url) => `${url.pathname}${url.search}` === path);
}

export const test = base.extend<{ pageProblems: string[] }>({
  pageProblems: [
    async ({ page }, use) => {
      const problems: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error' && /Content Security Policy|Refused to/i.test(message.text()))
          problems.push(message.text());
      });
      page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
      await use(problems);
      expect(problems, 'no CSP violations or uncaught errors in the page').toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };
