import { createServer } from 'node:net';
import type { Locator, Page } from '@playwright/test';
import { expect, signInAt, test } from './fixtures.ts';

// "An administrator sees why a connection test failed and finds the record in the log": `admin` tests a
// PostgreSQL connection to a port nobody listens on and a MariaDB connection with a wrong password; the form says
// why each failed, under the field to fix; then /management/logs holds a warning for each.

// `localhost` is on the e2e server's SQL_HOST_ALLOWLIST (any port); 127.0.0.1 only at 5432.
const MARIADB = { host: 'localhost', port: 3306, user: 'root' };

/** A loopback port nobody listens on right now. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === 'string') throw new Error('no free port');
  return address.port;
}

async function createCollection(page: Page, name: string): Promise<string> {
  await signInAt(page, '/collection/create', 'admin');
  await page.getByRole('textbox', { name: 'Name' }).fill(name);
  await page.getByRole('button', { name: 'Create collection' }).click();
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  return new URL(page.url()).pathname;
}

/** The error shown under a field, as assistive technology reads it: the field's description naming its error. */
async function errorUnder(form: Locator, field: Locator): Promise<string> {
  await expect(field).toHaveAttribute('aria-describedby', /-error\b/);
  const ids = ((await field.getAttribute('aria-describedby')) ?? '').split(/\s+/).filter((id) => id.endsWith('-error'));
  const texts = await Promise.all(ids.map((id) => form.locator(`[id="${id}"]`).textContent()));
  return texts.join(' ');
}

test('admin sees why connection tests failed, in the form and in the application log', async ({ page }) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  const stamp = Date.now();
  const collectionPath = await createCollection(page, `E2E connection errors ${stamp}`);
  await page.goto(`${collectionPath}/edit/connections`);
  await page.getByRole('button', { name: 'New connection' }).click();
  const form = page.getByRole('dialog', { name: 'New connection' });
  await form.getByRole('textbox', { name: 'Name' }).fill(`broken${stamp}`);

  // PostgreSQL at a closed port: refused, said under Port.
  const port = await closedPort();
  await form.getByRole('textbox', { name: 'Host' }).fill(MARIADB.host);
  await form.getByRole('textbox', { name: 'Port' }).fill(String(port));
  await form.getByRole('textbox', { name: 'Database' }).fill('postgres');
  await form.getByRole('textbox', { name: 'User' }).fill('postgres');
  await form.getByRole('button', { name: 'Test connection' }).click();
  const portField = form.getByRole('textbox', { name: 'Port' });
  expect(await errorUnder(form, portField)).toMatch(/^Connection refused: .*Check the port/);
  await expect(form.getByText(/unknown error/i)).toHaveCount(0);
  await page.screenshot({ path: 'test-results/connection-refused.png' });

  // MariaDB with a wrong password: authentication failed, said under Password.
  await form.getByRole('combobox', { name: 'Kind' }).click();
  await page.getByRole('option', { name: 'MySQL / MariaDB' }).click();
  await form.getByRole('textbox', { name: 'Port' }).fill(String(MARIADB.port));
  await form.getByRole('textbox', { name: 'Database' }).fill('mysql');
  await form.getByRole('textbox', { name: 'User' }).fill(MARIADB.user);
  await form.getByRole('textbox', { name: 'Password' }).fill(`wrong-${stamp}`);
  await form.getByRole('button', { name: 'Test connection' }).click();
  const passwordField = form.getByRole('textbox', { name: 'Password' });
  expect(await errorUnder(form, passwordField)).toMatch(/^Authentication failed: .*Check both/);
  await page.screenshot({ path: 'test-results/connection-authentication-1440.png' });
  await page.setViewportSize({ width: 768, height: 1000 });
  await expect(form.getByText(/^Authentication failed/)).toBeVisible();
  await page.screenshot({ path: 'test-results/connection-authentication-768.png' });
  await page.setViewportSize({ width: 1440, height: 900 });

  // The administrator finds both as warnings in the application log.
  await page.goto('/management/logs');
  const table = page.getByRole('table', { name: 'Application log' });
  await expect(table).toBeVisible();
  await page.getByRole('combobox', { name: 'Level' }).selectOption('warn');
  await page.getByRole('combobox', { name: 'Category' }).selectOption('connections');
  await expect(page).toHaveURL(/category=connections/);
  await expect(table.getByText(/SQL connection test failed: Connection refused/).first()).toBeVisible();
  await expect(table.getByText(/SQL connection test failed: Authentication failed/).first()).toBeVisible();
  await page.screenshot({ path: 'test-results/connection-errors-log.png', fullPage: true });
});
