import AxeBuilder from '@axe-core/playwright';
import { expect, signInAt, test } from './fixtures.ts';

// Against the real server: the administrator's change is audited; on /management/logs they find the
// record by level and text, read its change in the drawer (and axe finds nothing there), and the drawer's request
// id shows that request's records.

const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

test('the administrator finds an audited change by level and text and follows its request id', async ({ page }) => {
  const name = `E2E log group ${Date.now()}`;
  await signInAt(page, '/management/user-group/create', 'admin');
  await page.getByRole('textbox', { name: 'Name' }).fill(name);
  await page.getByRole('button', { name: 'Create group' }).click();
  await page.waitForURL(/\/management\/user-group\/\d+\/members$/);

  await page.goto('/management/logs');
  const table = page.getByRole('table', { name: 'Application log' });
  await expect(table).toBeVisible();
  await page.getByRole('combobox', { name: 'Level' }).selectOption('info');
  await expect(page).toHaveURL(/level=info/);
  await page.getByRole('combobox', { name: 'Search', exact: true }).fill(name);
  await expect(page).toHaveURL(/search=E2E/);
  await expect(table.getByRole('row')).toHaveCount(2);
  await expect(page.getByText(/^1 record matching/)).toBeVisible();
  await page.waitForTimeout(350);
  const listFindings = (await new AxeBuilder({ page }).withTags(WCAG_TAGS).analyze()).violations;
  expect(listFindings.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);

  await table.getByRole('button', { name: `userGroup.create userGroup ${name}` }).click();
  const drawer = page.getByRole('dialog', { name: 'Log record' });
  const diff = drawer.getByRole('table', { name: 'Values before and after' });
  await expect(diff.getByRole('row', { name: /^name/ })).toContainText(name);
  await expect(diff.getByRole('row', { name: /^name/ })).toContainText('Added');
  await expect(drawer.getByText(`userGroup ${name}`, { exact: true })).toBeVisible();
  await page.waitForTimeout(350);
  const findings = (await new AxeBuilder({ page }).include('[role="dialog"]').withTags(WCAG_TAGS).analyze()).violations;
  expect(findings.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  await page.screenshot({ path: 'test-results/logs-drawer.png', fullPage: false });

  const requestLink = drawer.getByRole('link', { name: /^[0-9a-f-]{36}$/ });
  const requestId = (await requestLink.textContent()) ?? '';
  await requestLink.click();
  await expect(page).toHaveURL(`/management/logs?requestId=${requestId}`);
  await expect(drawer).toBeHidden();
  await expect(page.getByRole('textbox', { name: 'Request id' })).toHaveValue(requestId);
  await expect(page.getByRole('combobox', { name: 'Search', exact: true })).toHaveValue('');
  const rows = table.getByRole('row');
  await expect(rows.nth(1)).toBeVisible();
  for (const link of await table.getByRole('link', { name: /^Records of request / }).all()) {
    await expect(link).toHaveAttribute('title', requestId);
  }
  await expect(table.getByRole('button', { name: `userGroup.create userGroup ${name}` })).toBeVisible();
  await page.screenshot({ path: 'test-results/logs-request.png', fullPage: true });
});
