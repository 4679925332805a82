import { expect, signInAt, test } from './fixtures.ts';

// an editor writes a SQL asset in the editor (CodeMirror), defines the parameter the SQL uses, runs it
// before saving, saves, and the asset is then called like any other. Also the connection screen: the stored
// secret is not shown and the test reports the server.

test('admin writes, runs and saves a SQL asset with an integer parameter, then calls it', async ({ page }) => {
  test.setTimeout(90_000);
  await signInAt(page, '/collection?search=Sales', 'admin');
  await page.getByRole('link', { name: 'Sales', exact: true }).first().click();
  await page.getByRole('tab', { name: /Data assets/ }).click();
  await page.getByRole('link', { name: 'New data asset' }).first().click();
  await expect(page.getByRole('heading', { level: 1, name: 'New data asset in Sales' })).toBeVisible();

  const name = `Big orders ${Date.now()}`;
  await page.getByRole('textbox', { name: 'Name' }).fill(name);
  const sql = page.getByRole('textbox', { name: 'SQL' });
  await sql.click();
  await page.keyboard.insertText('select id, total from orders where total >= :minTotal order by total desc limit 5');
  await page.getByRole('button', { name: 'Define :minTotal' }).click();
  await page.getByRole('combobox', { name: 'Type of minTotal' }).click();
  await page.getByRole('option', { name: 'integer', exact: true }).click();

  const save = page.getByRole('button', { name: 'Save', exact: true });
  await expect(save).toBeDisabled();
  await page.getByRole('textbox', { name: 'Value of :minTotal' }).fill('100');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page.getByText(/Bound values/)).toBeVisible();
  await expect(page.getByRole('region', { name: 'Preview of the result' }).locator('tbody tr')).toHaveCount(5);
  await expect(save).toBeEnabled();
  await save.click();

  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  await page.getByRole('link', { name: 'Call', exact: true }).click();
  await page.getByRole('textbox', { name: 'minTotal' }).fill('100');
  await page.getByRole('button', { name: 'Call', exact: true }).click();
  await expect(page.getByText(/^5 rows$/u).first()).toBeVisible();
});

test('the connection screen keeps the secret hidden and tests the connection', async ({ page }) => {
  await signInAt(page, '/collection?search=Sales', 'admin');
  await page.getByRole('link', { name: 'Sales', exact: true }).first().click();
  await page.getByRole('tab', { name: /Connections/ }).click();
  await page.getByRole('link', { name: 'Shop', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Connection Shop' })).toBeVisible();
  await page.getByRole('button', { name: 'Test connection' }).click();
  await expect(page.getByText(/^Connected: /u)).toBeVisible();
});
