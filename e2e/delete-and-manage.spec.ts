import type { Page } from '@playwright/test';
import { expect, signInAt, test } from './fixtures.ts';

// the Owner of Sales (`admin`) deletes a data asset and then a connection after
// reading what goes with them, and is refused while an asset still uses the connection; cancels a download job from
// My downloads; changes a client tool's settings and watches the snippet follow. Screens at 1440 and 768 px.

const SHOTS = 'test-results/screens/delete-and-manage';

async function accessToken(page: Page): Promise<string> {
  const token = await page.evaluate(() => {
    const key = Object.keys(sessionStorage).find((name) => name.startsWith('oidc.user:'));
    return key ? (JSON.parse(sessionStorage.getItem(key) ?? '{}') as { access_token?: string }).access_token : '';
  });
  if (!token) throw new Error('no access token in the session');
  return token;
}

interface Api {
  get: <T>(path: string) => Promise<T>;
  post: <T>(path: string, data: unknown, status?: number) => Promise<T>;
}

async function api(page: Page): Promise<Api> {
  const headers = { Authorization: `Bearer ${await accessToken(page)}` };
  return {
    get: async (path) => {
      const reply = await page.request.get(path, { headers });
      expect(reply.ok(), await reply.text()).toBe(true);
      return reply.json();
    },
    post: async (path, data, status = 201) => {
      const reply = await page.request.post(path, { headers, data });
      expect(reply.status(), await reply.text()).toBe(status);
      return reply.json();
    },
  };
}

async function salesUid(client: Api): Promise<string> {
  const list = await client.get<{ items: { uid: string; name: string }[] }>(
    '/api/DataSourceCollection/GetAll?search=Sales',
  );
  const sales = list.items.find((item) => item.name === 'Sales');
  if (!sales) throw new Error('no Sales collection');
  return sales.uid;
}

async function shot(page: Page, name: string) {
  for (const width of [1440, 768]) {
    await page.setViewportSize({ width, height: 900 });
    await page.waitForTimeout(300);
    await page.screenshot({ path: `${SHOTS}/${name}-${width}.png` });
  }
  await page.setViewportSize({ width: 1440, height: 900 });
}

test.describe.configure({ timeout: 120_000 });

test('an owner deletes an asset, then its connection, after reading what goes with them', async ({ page }) => {
  await signInAt(page, '/collection', 'admin');
  const client = await api(page);
  const collection = await salesUid(client);
  const stamp = Date.now().toString(36);
  const connection = await client.post<{ id: number; name: string }>('/api/SqlConnection', {
    collectionUid: collection,
    name: `Spare shop ${stamp}`,
    kind: 'sqlite',
    database: 'shop.sqlite', // the Sales collection's copy of the demo shop (DATA_DIR/sqlite/<uid>/)
  });
  const asset = await client.post<{ uid: string; name: string }>('/api/SqlDataSource', {
    collectionUid: collection,
    connectionId: connection.id,
    name: `Regions copy ${stamp}`,
    sql: 'select id, name from regions order by id',
    cacheTtlSeconds: 300,
  });
  // A download of it, finished, so that its deletion has a file to take with it.
  const job = await client.post<{ id: string }>('/api/Download', { dataAssetUid: asset.uid, format: 'csv' }, 202);
  await expect
    .poll(async () => (await client.get<{ state: string }>(`/api/Download/${job.id}/Status`)).state)
    .toBe('Completed');

  // The connection is refused while the asset uses it: the dialog names the asset and offers no delete.
  await page.goto(`/collection/${collection}/edit/connection/${encodeURIComponent(connection.name)}`);
  await page.getByRole('button', { name: 'Delete connection' }).click();
  const refusal = page.getByRole('dialog', { name: 'Delete SQL connection' });
  await expect(refusal.getByText('It cannot be deleted yet')).toBeVisible();
  await expect(refusal.getByRole('list', { name: 'What depends on it' })).toContainText(
    `${asset.name} — uses this connection`,
  );
  await expect(refusal.getByRole('button', { name: 'Delete SQL connection' })).toHaveCount(0);
  await shot(page, 'connection-refused');
  await refusal.getByRole('button', { name: 'Close', exact: true }).last().click();

  // The asset: its page says what goes with it, then it is gone.
  await page.goto(`/data-source/${asset.uid}`);
  await page.getByRole('button', { name: 'Delete', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete data asset' });
  const removes = dialog.getByRole('list', { name: 'Deleted with it' });
  await expect(removes).toContainText('1 download and its file');
  await shot(page, 'asset-delete');
  await dialog.getByRole('button', { name: 'Delete data asset' }).click();
  await page.waitForURL(`**/collection/${collection}/data-assets`);
  await expect(page.getByText(asset.name)).toHaveCount(0);
  const status = await page.request.get(`/api/Download/${job.id}/Status`, {
    headers: { Authorization: `Bearer ${await accessToken(page)}` },
  });
  expect(status.status()).toBe(404);

  // Now nothing uses the connection: it is deleted.
  await page.goto(`/collection/${collection}/edit/connection/${encodeURIComponent(connection.name)}`);
  await page.getByRole('button', { name: 'Delete connection' }).click();
  const free = page.getByRole('dialog', { name: 'Delete SQL connection' });
  await expect(free.getByText('Nothing else goes with it.')).toBeVisible();
  await free.getByRole('button', { name: 'Delete SQL connection' }).click();
  await page.waitForURL(`**/collection/${collection}/connections`);
  await expect(page.getByText(connection.name)).toHaveCount(0);
});

test('a download is cancelled from My downloads', async ({ page }) => {
  await signInAt(page, '/downloads', 'admin');
  const client = await api(page);
  const collection = await salesUid(client);
  const connections = await client.get<{ id: number; name: string }[]>(
    `/api/SqlConnection?collectionUid=${collection}`,
  );
  const shop = connections.find((item) => item.name === 'Shop');
  // Every pair of orders: far more rows than an export holds, so the job runs long enough to be cancelled.
  const asset = await client.post<{ uid: string }>('/api/SqlDataSource', {
    collectionUid: collection,
    connectionId: shop?.id,
    name: `Order pairs ${Date.now().toString(36)}`,
    sql: 'select a.id as first, b.id as second from orders a, orders b',
    timeoutMs: 600_000,
  });
  const job = await client.post<{ id: string; fileName: string }>(
    '/api/Download',
    { dataAssetUid: asset.uid, format: 'xlsx', parameters: {} },
    202,
  );
  await page.reload();
  const table = page.getByRole('table', { name: 'My downloads' });
  const row = table.getByRole('row').filter({ hasText: job.fileName });
  await expect(row.getByText('No parameters')).toBeVisible();
  await shot(page, 'downloads-active');
  await row.getByRole('button', { name: `Cancel ${job.fileName}` }).click();
  await expect(row.getByText('Cancelled', { exact: true })).toBeVisible();
  await expect(row.getByText('You cancelled it; no file was kept.')).toBeVisible();
  await expect(row.getByRole('button', { name: `Cancel ${job.fileName}` })).toHaveCount(0);
  await shot(page, 'downloads-cancelled');
});

test("a client tool's settings change its snippet as they are typed, and callers see it", async ({ page }) => {
  await signInAt(page, '/collection', 'admin');
  const client = await api(page);
  const collection = await salesUid(client);
  const connections = await client.get<{ id: number; name: string }[]>(
    `/api/SqlConnection?collectionUid=${collection}`,
  );
  const asset = await client.post<{ uid: string; name: string }>('/api/SqlDataSource', {
    collectionUid: collection,
    connectionId: connections.find((item) => item.name === 'Shop')?.id,
    name: `Regions for tools ${Date.now().toString(36)}`,
    sql: 'select id, name from regions order by id',
    clientTools: ['curl', 'python'],
  });

  await page.goto(`/collection/${collection}/edit/data-asset/${asset.uid}`);
  const settings = page.getByRole('region', { name: 'Client tool settings' });
  await settings.getByRole('tab', { name: 'curl' }).click();
  const curl = settings.getByLabel('curl snippet');
  await expect(curl).not.toContainText('--max-time');
  await settings.getByLabel('Timeout (seconds)').fill('45');
  await expect(curl).toContainText('--max-time 45');
  await settings.getByRole('tab', { name: 'Python' }).click();
  await settings.getByLabel('Format').selectOption('csv');
  await expect(settings.getByLabel('Python snippet', { exact: true })).toContainText('?format=csv');
  await expect(settings.getByLabel('pandas snippet', { exact: true })).toHaveCount(1);
  await settings.getByLabel('Also offer a pandas snippet').uncheck({ force: true });
  await expect(settings.getByLabel('pandas snippet', { exact: true })).toHaveCount(0);
  await settings.scrollIntoViewIfNeeded();
  await shot(page, 'tool-settings');
  await settings.getByRole('button', { name: 'Save tool settings' }).click();
  await expect(settings.getByText('Saved')).toBeVisible();

  await page.goto(`/data-source/${asset.uid}`);
  const snippets = page.getByRole('tablist', { name: 'Client tools' });
  await expect(snippets.getByRole('tab')).toHaveText(['curl', 'Python']);
  await expect(page.getByText('--max-time 45')).toBeVisible();
});

test("the calling layer's OpenAPI document is found from the Digital Lab and from an asset's page", async ({
  page,
}) => {
  await signInAt(page, '/digital-lab/tokens', 'partner');
  await page.getByRole('link', { name: 'Calling API' }).click();
  await page.waitForURL('**/digital-lab/calling-api');
  const operations = page.getByRole('region', { name: 'Operations' });
  await expect(operations.getByText('Orders by country').first()).toBeVisible();
  const download = page.getByRole('link', { name: 'Download openapi.json' });
  await expect(download).toHaveAttribute('download', 'data-lab-calling-api.json');
  const saved = page.waitForEvent('download');
  await download.click();
  const file = await saved;
  const document = JSON.parse(
    await file.createReadStream().then(async (stream) => {
      let text = '';
      for await (const chunk of stream) text += String(chunk);
      return text;
    }),
  ) as { openapi: string; paths: Record<string, unknown> };
  expect(document.openapi).toMatch(/^3\.1/);
  expect(Object.keys(document.paths).length).toBeGreaterThan(0);
  await shot(page, 'calling-api');

  const list = await (
    await api(page)
  ).get<{ items: { uid: string; name: string }[] }>('/api/DataSource/GetAll?search=Regions');
  const regions = list.items.find((item) => item.name === 'Regions');
  await page.goto(`/data-source/${regions?.uid}`);
  await page.getByRole('link', { name: 'Calling API' }).click();
  await page.waitForURL(`**/calling-api?asset=${regions?.uid}`);
  // Its calls (GET and POST) are pointed out.
  const pointed = page.locator('tr[aria-current="true"]');
  await expect(pointed).toHaveCount(2);
  await expect(pointed.first()).toContainText(String(regions?.uid));
});
