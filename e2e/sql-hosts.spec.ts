import { expect, signInAt, test } from './fixtures.ts';

// An analyst (who may create collections) makes one and tries to point a SQL connection at a port of the server's
// own machine: the form refuses it on the Host field and says what to do, on Test and on Create, and no connection
// is made. The e2e server allows this machine's PostgreSQL (127.0.0.1:5432) and the name localhost only.

const REFUSAL = 'The host 127.0.0.1 is a loopback address; an administrator may allow it with SQL_HOST_ALLOWLIST';

test("an analyst cannot point a SQL connection at the server's own machine", async ({ page }) => {
  const name = `Probe ${Date.now()}`;
  await signInAt(page, '/collection/create', 'analyst');
  await page.getByRole('textbox', { name: 'Name' }).fill(name);
  await page.getByRole('button', { name: 'Create collection' }).click();
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  const collectionPath = new URL(page.url()).pathname;

  await page.goto(`${collectionPath}/edit/connections`);
  await page.getByRole('button', { name: 'New connection' }).click();
  const form = page.getByRole('dialog', { name: 'New connection' });
  await form.getByRole('textbox', { name: 'Name' }).fill('Local Redis');
  await form.getByRole('textbox', { name: 'Host' }).fill('127.0.0.1');
  await form.getByRole('textbox', { name: 'Port' }).fill('6379');
  await form.getByRole('textbox', { name: 'Database' }).fill('postgres');
  await form.getByRole('textbox', { name: 'User' }).fill('postgres');

  await form.getByRole('button', { name: 'Test connection' }).click();
  await expect(form.getByText(REFUSAL)).toBeVisible();
  await form.getByRole('button', { name: 'Create connection' }).click();
  await expect(form.getByText(REFUSAL)).toBeVisible();
  await expect(form.getByRole('textbox', { name: 'Host' })).toHaveAttribute('aria-invalid', 'true');
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.screenshot({ path: 'test-results/sql-hosts-1440.png' });
  await page.setViewportSize({ width: 768, height: 1000 });
  await page.screenshot({ path: 'test-results/sql-hosts-768.png' });

  // Nothing was made.
  await page.keyboard.press('Escape');
  await expect(page.getByText('Local Redis')).toHaveCount(0);
});
