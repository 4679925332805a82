import AxeBuilder from '@axe-core/playwright';
import ExcelJS from 'exceljs';
import type { Page } from '@playwright/test';
import { expect, signInAt, test } from './fixtures.ts';

// `analyst` starts a 100,000-row XLSX download from a data asset's call screen, watches its
// progress, gets the file from the browser, and the test opens it with exceljs; then finds the job under My
// downloads (reached from the navigation) and fetches the file again from there.
// The demo shop holds exactly 100,000 orders (DEMO_SHOP_SIZE) but no demo asset returns them all, so the analyst
// (an Editor of Sales) first saves one that does, on the demo's Shop connection, through the API.

const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];
const ORDERS = 100_000;
const HEADER = ['order_id', 'ordered_at', 'total', 'status'];

async function accessToken(page: Page): Promise<string> {
  const token = await page.evaluate(() => {
    const key = Object.keys(sessionStorage).find((name) => name.startsWith('oidc.user:'));
    return key ? (JSON.parse(sessionStorage.getItem(key) ?? '{}') as { access_token?: string }).access_token : '';
  });
  if (!token) throw new Error('no access token in the session');
  return token;
}

/** Saves a Sales asset that returns every order, next to the demo's Orders asset; answers its uid. */
async function createAllOrdersAsset(page: Page): Promise<{ uid: string; name: string }> {
  const headers = { Authorization: `Bearer ${await accessToken(page)}` };
  const list = await page.request.get('/api/DataSource/GetAll?search=Orders%20by%20country', { headers });
  expect(list.ok()).toBe(true);
  const demo = ((await list.json()) as { items: { uid: string; name: string }[] }).items.find(
    (item) => item.name === 'Orders by country',
  );
  const detail = await page.request.get(`/api/DataSource/GetByUid/${demo?.uid}`, { headers });
  const { connection, collection } = (await detail.json()) as {
    connection: { id: number };
    collection: { uid: string };
  };
  const name = `All orders ${Date.now()}`;
  const created = await page.request.post('/api/SqlDataSource', {
    headers,
    data: {
      collectionUid: collection.uid,
      connectionId: connection.id,
      name,
      description: 'Every order of the demo shop, for the download test.',
      sql: `select id as ${HEADER[0]}, ${HEADER[1]}, ${HEADER[2]}, ${HEADER[3]} from orders order by id`,
      maxExportRows: 1_000_000,
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  return { uid: ((await created.json()) as { uid: string }).uid, name };
}

async function expectAccessible(page: Page, what: string) {
  await page.waitForTimeout(350); // Mantine's transitions end before colours are measured.
  const result = await new AxeBuilder({ page }).withTags(WCAG_TAGS).analyze();
  const findings = result.violations.map(
    (v) => `${what} · ${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
  );
  expect(findings).toEqual([]);
}

test('analyst downloads 100,000 orders as XLSX, watches it, opens the file and finds it in My downloads', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await signInAt(page, '/downloads', 'analyst');
  await expect(page.getByRole('heading', { level: 1, name: 'My downloads' })).toBeVisible();
  const asset = await createAllOrdersAsset(page);

  await page.goto(`/data-source/${asset.uid}/call`);
  await expect(page.getByRole('heading', { level: 1, name: `Call ${asset.name}` })).toBeVisible();
  const downloading = page.waitForEvent('download', { timeout: 120_000 });
  await page.getByRole('button', { name: 'Download', exact: true }).click();
  await page.getByRole('menuitem', { name: 'XLSX', exact: true }).click();

  // Progress: the job is Queued or Running (rows so far) before it completes and the file is handed over.
  const panel = page.getByRole('region', { name: 'Download' });
  await expect(panel).toBeVisible();
  await expect(panel.getByText(/Waiting to start|rows so far/u)).toBeVisible();
  await expectAccessible(page, 'call screen with a download in progress');

  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/\.xlsx$/u);
  await expect(panel.getByText('Completed', { exact: true })).toBeVisible();
  await expect(panel.getByText(/100,000 rows · [\d.]+ MB\. The file was handed to your browser\./u)).toBeVisible();

  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.readFile(await download.path());
  const sheet = workbook.worksheets[0];
  expect(sheet).toBeDefined();
  expect(sheet?.getRow(1).values).toEqual([undefined, ...HEADER]);
  expect(sheet?.actualRowCount).toBe(ORDERS + 1);
  expect(sheet?.getRow(2).getCell(1).value).toBe(1);
  expect(sheet?.getRow(ORDERS + 1).getCell(1).value).toBe(ORDERS);

  // My downloads, from the navigation: the job is there, Completed, and its file can be fetched again.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'My downloads' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'My downloads' })).toBeVisible();
  const row = page.getByRole('row').filter({ hasText: download.suggestedFilename() });
  await expect(row.getByRole('link', { name: asset.name })).toHaveAttribute('href', `/data-source/${asset.uid}`);
  await expect(row.getByText('XLSX', { exact: true })).toBeVisible();
  await expect(row.getByText('Completed', { exact: true })).toBeVisible();
  await expect(row.getByText(/100,000 rows · [\d.]+ MB/u)).toBeVisible();
  await expectAccessible(page, '/downloads with a Completed job');

  const again = page.waitForEvent('download');
  await row.getByRole('button', { name: `Download ${download.suggestedFilename()}` }).click();
  const second = await again;
  expect(second.suggestedFilename()).toBe(download.suggestedFilename());
  const copy = new ExcelJS.Workbook();
  await copy.xlsx.readFile(await second.path());
  expect(copy.worksheets[0]?.actualRowCount).toBe(ORDERS + 1);
});
