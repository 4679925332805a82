import { expect as baseExpect, signInAt, test } from './fixtures.ts';

// An editor changes the SQL of a demo asset (Sales › Regions), opens its History, sees the change in the
// side-by-side diff, restores the version before it, and the asset answers as it did before the change.

const ORIGINAL = 'select id, name from regions order by name';
const CHANGED = `${ORIGINAL} limit 1`;
const SHOTS = 'test-results/asset-history';
// Several saves, runs and calls in one story: more time than a single step's default.
const expect = baseExpect.configure({ timeout: 30_000 });

test('an editor changes a demo asset, sees the change in its History and restores the version before', async ({
  page,
}) => {
  test.setTimeout(300_000);
  await signInAt(page, '/collection?search=Sales', 'admin');
  await page.getByRole('link', { name: 'Sales', exact: true }).first().click();
  await page.getByRole('tab', { name: /Data assets/ }).click();
  await page.getByRole('link', { name: 'Regions', exact: true }).first().click();
  await expect(page.getByRole('heading', { level: 1, name: 'Regions' })).toBeVisible();
  const assetPath = new URL(page.url()).pathname;

  const callRows = async () => {
    await page.goto(`${assetPath}/call`);
    await page.getByRole('button', { name: 'Call', exact: true }).click();
    const count = page.getByText(/^\d+ rows?$/u).first();
    await expect(count).toBeVisible();
    return count.textContent();
  };
  const before = await callRows();

  // Change the SQL, run it, save.
  await page.goto(assetPath);
  await page.getByRole('link', { name: 'Edit', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Edit Regions' })).toBeVisible();
  const sql = page.getByRole('textbox', { name: 'SQL' });
  await expect(sql).toContainText(ORIGINAL);
  await sql.click();
  await page.keyboard.press('ControlOrMeta+End');
  await page.keyboard.insertText(' limit 1');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page.getByRole('region', { name: 'Preview of the result' }).locator('tbody tr')).toHaveCount(1);
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Regions' })).toBeVisible();
  expect(await callRows()).toBe('1 row');

  // History: the newest version changed the SQL; the diff shows the old and the new line side by side.
  await page.goto(assetPath);
  await page.getByRole('link', { name: 'Edit', exact: true }).click();
  await page.getByRole('tab', { name: 'History' }).click();
  const versions = page.getByRole('table', { name: 'Versions' });
  await expect(versions.getByRole('row').nth(1)).toContainText('Changed SQL');
  const sqlDiff = page.getByRole('region', { name: 'SQL differences' });
  const changed = sqlDiff.locator('tr[data-diff="changed"]');
  await expect(changed).toHaveCount(1);
  await expect(changed).toContainText(ORIGINAL);
  await expect(changed).toContainText(CHANGED);
  await expect(page.getByRole('region', { name: 'Parameters differences' })).toContainText('No change');
  for (const width of [1440, 768]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: SQL_SHOT(width), fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 720 });

  // Restore the version before the change: the editor shows its SQL again, and History has one more version.
  const previous = versions.getByRole('row').nth(2);
  const previousNumber = (await previous.getByRole('cell').first().textContent()) ?? '';
  await previous.getByRole('button', { name: 'Restore' }).click();
  const dialog = page.getByRole('dialog', { name: `Restore version ${previousNumber}` });
  await dialog.getByRole('button', { name: 'Restore this version' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('tab', { name: 'Definition' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('textbox', { name: 'SQL' })).toContainText(ORIGINAL);
  await page.getByRole('tab', { name: 'History' }).click();
  await expect(versions.getByRole('row').nth(1)).toContainText(`Restored version ${previousNumber}: SQL`);

  expect(await callRows()).toBe(before);
});

const SQL_SHOT = (width: number) => `${SHOTS}/history-${width}.png`;
