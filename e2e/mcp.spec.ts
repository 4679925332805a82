import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { fetchClient } from '../apps/server/test/support/http.ts';
import { signIn } from '../apps/server/test/support/sign-in.ts';
import { DEMO_PASSWORD, expect, signInAt, test } from './fixtures.ts';

// an editor makes a new data asset available to AI agents, copies the MCP configuration from the asset's
// page, and a real MCP client (the official SDK) connects with it and calls the asset's tool; the asset's usage
// then shows that call apart, as a call of AI agents (MCP).

test('an editor makes an asset available to AI agents; an MCP client calls it with the copied configuration', async ({
  page,
  context,
  baseURL,
}) => {
  test.setTimeout(240_000);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await signInAt(page, '/collection?search=Sales', 'admin');
  await page.getByRole('link', { name: 'Sales', exact: true }).first().click();
  await page.getByRole('tab', { name: /Data assets/ }).click();
  await page.getByRole('link', { name: 'New data asset' }).first().click();
  const name = `Agent orders ${Date.now()}`;
  await page.getByRole('textbox', { name: 'Name' }).fill(name);
  await page.getByRole('textbox', { name: 'SQL' }).click();
  await page.keyboard.insertText('select id, total from orders order by id limit 3');
  const available = page.getByRole('switch', { name: 'Available to AI agents' });
  await expect(available).not.toBeChecked();
  await available.check();
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page.getByRole('region', { name: 'Preview of the result' }).locator('tbody tr')).toHaveCount(3);
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  const assetPath = new URL(page.url()).pathname;

  await expect(page.getByText('Available', { exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Copy mcpServers entry' }).click();
  const copied = String(await page.evaluate('navigator.clipboard.readText()'));
  const entry = (
    JSON.parse(copied) as {
      mcpServers: { datalab: { type: string; url: string; headers: Record<string, string> } };
    }
  ).mcpServers.datalab;
  expect(entry.type).toBe('http');
  expect(entry.url).toBe(`${new URL(page.url()).origin}/mcp`);
  expect(entry.headers['Authorization']).toBe('Bearer <YOUR_TOKEN>');

  const publicUrl = String(baseURL).replace('127.0.0.1', 'localhost');
  const { access_token: token } = await signIn(fetchClient(), {
    publicUrl,
    username: 'admin',
    password: DEMO_PASSWORD,
  });
  const client = new Client({ name: 'e2e-agent', version: '1.0.0' });
  const headers = { ...entry.headers, Authorization: entry.headers['Authorization']!.replace('<YOUR_TOKEN>', token) };
  await client.connect(new StreamableHTTPClientTransport(new URL(entry.url), { requestInit: { headers } }));
  try {
    const { tools } = await client.listTools();
    const tool = tools.find((candidate) => candidate.title === name);
    expect(tool?.name).toMatch(/^agent_orders_\d+$/);
    const result = await client.callTool({ name: tool!.name, arguments: {} });
    expect(result.isError).toBeFalsy();
    expect((result.structuredContent as { rowCount: number }).rowCount).toBe(3);
  } finally {
    await client.close();
  }

  // The call in the asset's usage, by channel (the rollups are written every 5 s in this suite).
  await page.setViewportSize({ width: 1440, height: 1000 });
  const channels = page.getByRole('figure', { name: 'Calls by channel' });
  await expect(async () => {
    await page.goto(`${assetPath}?period=24h`);
    await expect(channels).toContainText('AI agents (MCP): 1 call;', { timeout: 30_000 });
  }).toPass({ timeout: 120_000 });
  await channels.scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'test-results/usage-channels-1440.png', fullPage: true });
  await page.setViewportSize({ width: 768, height: 1000 });
  await page.screenshot({ path: 'test-results/usage-channels-768.png', fullPage: true });
});
