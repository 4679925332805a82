import type { Page } from '@playwright/test';
import { expect, signInAt, test } from './fixtures.ts';

// The access model end to end (product §14): a role given to a group reaches the members of the
// groups nested in it, and is gone from the next request once the membership is.

async function pick(page: Page, picker: string, search: string, option: string) {
  await page.getByRole('combobox', { name: picker, exact: true }).click();
  await page.keyboard.type(search);
  // An option's name is its label, then its second line (username · e-mail) when it has one.
  await page.getByRole('option', { name: new RegExp(`^${option.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`) }).click();
}

async function createGroup(page: Page, name: string): Promise<string> {
  await page.goto('/management/user-group/create');
  await page.getByRole('textbox', { name: 'Name' }).fill(name);
  await page.getByRole('button', { name: 'Create group' }).click();
  await page.waitForURL(/\/management\/user-group\/\d+\/members$/);
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  return new URL(page.url()).pathname.replace(/\/members$/, '');
}

async function searchCollections(page: Page, name: string) {
  await page.goto(`/collection?search=${encodeURIComponent(name)}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Collections' })).toBeVisible();
}

test('a role granted to a group reaches a member of a nested group until the membership ends', async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  const stamp = Date.now();
  const collection = `E2E ${stamp}`;
  const parent = `E2E parent ${stamp}`;
  const child = `E2E team ${stamp}`;

  // The administrator creates a collection nobody else can see yet.
  await signInAt(page, '/collection/create', 'admin');
  await page.getByRole('textbox', { name: 'Name' }).fill(collection);
  await page.getByRole('textbox', { name: 'Description' }).fill('Made by the access end-to-end test');
  await page.getByRole('button', { name: 'Create collection' }).click();
  await expect(page.getByRole('heading', { level: 1, name: collection })).toBeVisible();
  const collectionPath = new URL(page.url()).pathname;

  // Two new groups: the team is nested in the parent, and the analyst joins the team.
  const parentPath = await createGroup(page, parent);
  const childPath = await createGroup(page, child);
  await pick(page, 'Add a member', 'analyst', 'Alan Analyst');
  await page.getByRole('button', { name: 'Add member' }).click();
  await expect(
    page.getByRole('table', { name: 'Members' }).getByRole('cell', { name: 'Alan Analyst', exact: true }),
  ).toBeVisible();

  await page.goto(`${parentPath}/groups`);
  await pick(page, 'Nest a group in this one', child, child);
  await page.getByRole('button', { name: 'Add group' }).click();
  await expect(page.getByRole('table', { name: 'Child groups' }).getByRole('link', { name: child })).toBeVisible();
  await page.getByRole('tab', { name: 'Hierarchy' }).click();
  await expect(page).toHaveURL(new RegExp(`${parentPath}/hierarchy$`));
  await expect(page.getByRole('navigation', { name: 'Groups below' }).getByRole('link', { name: child })).toBeVisible();

  // The parent group gets Reader on the collection.
  await page.goto(`${collectionPath}/edit/access`);
  await page.getByRole('radiogroup', { name: 'Grant to' }).getByText('Group', { exact: true }).click();
  await pick(page, 'Group', parent, parent);
  await expect(page.getByRole('combobox', { name: 'Role', exact: true })).toHaveValue('Reader');
  await page.getByRole('button', { name: 'Grant' }).click();
  await expect(
    page.getByRole('table', { name: 'Groups with a role' }).getByRole('link', { name: parent }),
  ).toBeVisible();

  // The analyst, in a browser of their own, now finds the collection.
  const analystContext = await browser.newContext();
  const analyst = await analystContext.newPage();
  const analystProblems: string[] = [];
  analyst.on('pageerror', (error) => analystProblems.push(error.message));
  await signInAt(analyst, '/collection', 'analyst');
  await searchCollections(analyst, collection);
  await expect(analyst.getByRole('link', { name: collection })).toBeVisible();
  await analyst.getByRole('link', { name: collection }).click();
  await analyst.getByRole('tab', { name: 'Access' }).click();
  await expect(analyst.getByText(`Group ${parent}: Reader`)).toBeVisible();

  // The administrator takes the analyst out of the team …
  await page.goto(`${childPath}/members`);
  await page.getByRole('button', { name: 'Remove Alan Analyst' }).click();
  await page.getByRole('dialog', { name: 'Remove member' }).getByRole('button', { name: 'Remove' }).click();
  await expect(page.getByText('No members yet')).toBeVisible();

  // … and the analyst's next page load no longer shows the collection.
  await searchCollections(analyst, collection);
  await expect(analyst.getByText(`No collections match “${collection}”`)).toBeVisible();
  await expect(analyst.getByRole('link', { name: collection })).toHaveCount(0);
  await analyst.goto(collectionPath);
  await expect(analyst.getByRole('heading', { name: 'The requested resource was not found' })).toBeVisible();

  expect(analystProblems).toEqual([]);
  await analystContext.close();
});
