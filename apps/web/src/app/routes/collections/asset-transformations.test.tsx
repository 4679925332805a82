import { screen, waitFor, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildAuth, buildCollectionDetail, buildCurrentUser, buildUser } from '../../../test/builders.ts';
import { buildDataSourceDetail, buildSqlConnection } from '../../../test/data-source-builders.ts';
import { fakeApi, type FakeRequest } from '../../../test/fake-api.ts';
import { renderApp } from '../../../test/render-app.tsx';

// The asset editor's transformations (rules added, reordered, removed, with a live preview) and client tools.

beforeAll(() => {
  // jsdom has no layout: CodeMirror measures text ranges, which jsdom's Range lacks.
  const empty = { length: 0, item: () => null, [Symbol.iterator]: [][Symbol.iterator] };
  Range.prototype.getClientRects ??= () => empty as unknown as DOMRectList;
  Range.prototype.getBoundingClientRect ??= () => new DOMRect();
});

const editor = () => ({ auth: buildAuth({ user: buildUser() }), currentUser: buildCurrentUser({ id: 1 }) });

const asset = buildDataSourceDetail({
  uid: 'ds-1',
  sql: 'select id, email, total from orders',
  parameters: [],
  transformations: [
    {
      id: 1,
      position: 0,
      name: 'Privacy',
      rules: [
        { id: 2, position: 1, type: 'rename', from: 'total', to: 'amount' },
        { id: 1, position: 0, type: 'mask', column: 'email', mode: 'partial', keepFirst: 1 },
      ],
    },
  ],
  clientToolConfigurations: [
    { id: 31, tool: 'curl', settings: {} },
    { id: 32, tool: 'python', settings: { pandas: true } },
  ],
  can: { edit: true },
});

const previewReply = {
  columns: [
    { name: 'id', type: 'integer' },
    { name: 'email', type: 'string' },
    { name: 'amount', type: 'decimal' },
  ],
  rows: [{ id: 7, email: 'a***', amount: '12.50' }],
  truncated: false,
  durationMs: 3,
  boundValues: {},
};

const routes = () => ({
  'GET /api/DataSourceCollection/GetByUid/col-1': { body: buildCollectionDetail() },
  'GET /api/SqlConnection': { body: [buildSqlConnection({ id: 5, kind: 'sqlite', name: 'shop' })] },
  'GET /api/WebApiConnection': { body: [] },
  'GET /api/SqlConnection/5/Schema': { body: { tables: [] } },
  'GET /api/DataSource/GetByUid/ds-1': { body: asset },
  'POST /api/SqlDataSource/Preview': { body: previewReply },
  'PUT /api/SqlDataSource': { body: asset },
});

const previews = (requests: FakeRequest[]) => requests.filter((r) => r.path === '/api/SqlDataSource/Preview');
const lastRules = (requests: FakeRequest[]) => {
  const body = previews(requests).at(-1)?.body as { transformations: { rules: unknown[] }[] };
  return body.transformations.map((t) => t.rules);
};

async function openAndRun(user: UserEvent) {
  renderApp({ path: '/collection/col-1/edit/data-asset/ds-1', ...editor() });
  await user.click(await screen.findByRole('button', { name: 'Run' }));
  expect(await screen.findByText(/Bound values/)).toBeTruthy();
}

describe('transformations in the asset editor', () => {
  it('runs with the stored rules in order, and re-runs live as rules are added, reordered and removed', async () => {
    const api = fakeApi(routes());
    const user = userEvent.setup();
    await openAndRun(user);
    // The stored rules come decoded with the contract's rule schema, its defaults filled in as the server sends them.
    expect(lastRules(api.requests)).toEqual([
      [
        { type: 'mask', column: 'email', mode: 'partial', keepFirst: 1, keepLast: 0, maskChar: '*', salt: '' },
        { type: 'rename', from: 'total', to: 'amount' },
      ],
    ]);

    const first = screen.getByRole('group', { name: 'Transformation 1' });
    await user.click(within(first).getByRole('combobox', { name: 'New rule for transformation 1' }));
    await user.click(await screen.findByRole('option', { name: 'Filter rows' }));
    await user.click(within(first).getByRole('button', { name: 'Add rule' }));
    const filter = within(first).getByRole('group', { name: 'Rule 3 of transformation 1' });
    await user.type(within(filter).getByRole('combobox', { name: 'Column' }), 'amount');
    await user.click(within(filter).getByRole('combobox', { name: 'Condition' }));
    await user.click(await screen.findByRole('option', { name: 'at least' }));
    await user.type(within(filter).getByRole('textbox', { name: 'Value' }), '10');
    // Under load the keystrokes may fall either side of the preview's delay, so a run with '1' may come first: the
    // preview must catch up with the rule as typed, whatever ran on the way.
    await waitFor(
      () =>
        expect(lastRules(api.requests)[0]?.[2]).toEqual({ type: 'filter', column: 'amount', op: 'ge', value: '10' }),
      { timeout: 3000 },
    );
    expect(lastRules(api.requests)[0]).toHaveLength(3);

    const runsBefore = previews(api.requests).length;
    await user.click(within(first).getByRole('button', { name: 'Move rule 3 of transformation 1 up' }));
    await waitFor(() => expect(previews(api.requests).length).toBe(runsBefore + 1), { timeout: 3000 });
    expect(lastRules(api.requests)[0]?.map((rule) => (rule as { type: string }).type)).toEqual([
      'mask',
      'filter',
      'rename',
    ]);

    await user.click(within(first).getByRole('button', { name: 'Remove rule 1 of transformation 1' }));
    await waitFor(() => expect(lastRules(api.requests)[0]).toHaveLength(2), { timeout: 3000 });

    // The Save that follows sends the transformations as they are on screen.
    const save = screen.getByRole('button', { name: 'Save' });
    await waitFor(() => expect(save.hasAttribute('disabled')).toBe(false));
    await user.click(save);
    await waitFor(() =>
      expect(api.requests.some((r) => r.method === 'PUT' && r.path === '/api/SqlDataSource')).toBe(true),
    );
    const put = api.requests.find((r) => r.method === 'PUT' && r.path === '/api/SqlDataSource');
    expect(put?.body).toMatchObject({
      transformations: [
        {
          name: 'Privacy',
          rules: [
            { type: 'filter', column: 'amount', op: 'ge', value: '10' },
            { type: 'rename', from: 'total', to: 'amount' },
          ],
        },
      ],
    });
  });

  it('builds each rule in the engine shape and shows the server message under the field it names, no key, no toast', async () => {
    const api = fakeApi({
      ...routes(),
      'POST /api/SqlDataSource/Preview': (request) => {
        const body = request.body as { transformations: { rules: { column?: string }[] }[] };
        const missing = body.transformations[1]?.rules[0]?.column === 'nope';
        return missing
          ? {
              status: 400,
              body: {
                title: 'One or more validation errors occurred.',
                status: 400,
                errors: { 'transformations.1.rules.0.column': ['Column nope does not exist'] },
              },
            }
          : { body: previewReply };
      },
    });
    const user = userEvent.setup();
    await openAndRun(user);
    await user.click(screen.getByRole('button', { name: 'Add transformation' }));
    const second = screen.getByRole('group', { name: 'Transformation 2' });
    const add = async (label: string) => {
      await user.click(within(second).getByRole('combobox', { name: 'New rule for transformation 2' }));
      await user.click(await screen.findByRole('option', { name: label }));
      await user.click(within(second).getByRole('button', { name: 'Add rule' }));
    };
    await add('Mask a column');
    const mask = within(second).getByRole('group', { name: 'Rule 1 of transformation 2' });
    await user.type(within(mask).getByRole('combobox', { name: 'Column' }), 'nope');
    const column = within(mask).getByRole('combobox', { name: 'Column' });
    await waitFor(() => expect(column.getAttribute('aria-invalid')).toBe('true'), { timeout: 3000 });
    // The message is the field's own (its description), in the product's words, with no internal key anywhere.
    expect(within(mask).getByText('Column nope does not exist').id).toBe(
      column
        .getAttribute('aria-describedby')
        ?.split(' ')
        .find((id) => id.endsWith('error')),
    );
    expect(document.body.textContent).not.toMatch(/rules|column: /);
    await user.clear(within(mask).getByRole('combobox', { name: 'Column' }));
    await user.type(within(mask).getByRole('combobox', { name: 'Column' }), 'email');
    await user.click(within(mask).getByRole('combobox', { name: 'Mask' }));
    await user.click(await screen.findByRole('option', { name: 'Hash (SHA-256)' }));
    await user.type(within(mask).getByRole('textbox', { name: 'Salt' }), 'pepper');

    await add('Computed column');
    const computed = within(second).getByRole('group', { name: 'Rule 2 of transformation 2' });
    await user.type(within(computed).getByRole('textbox', { name: 'New column' }), 'gross');
    await user.type(within(computed).getByRole('textbox', { name: 'Expression' }), 'amount * 2');
    await add('Limit rows');
    const limit = within(second).getByRole('group', { name: 'Rule 3 of transformation 2' });
    await user.clear(within(limit).getByRole('textbox', { name: 'Rows, at most' }));
    await user.type(within(limit).getByRole('textbox', { name: 'Rows, at most' }), '5');

    await waitFor(
      () =>
        expect(lastRules(api.requests)[1]).toEqual([
          { type: 'mask', column: 'email', mode: 'hash', keepFirst: 1, keepLast: 0, maskChar: '*', salt: 'pepper' },
          { type: 'computed', name: 'gross', expression: 'amount * 2' },
          { type: 'limit', count: 5 },
        ]),
      { timeout: 3000 },
    );
    expect(within(mask).queryByText(/does not exist/)).toBeNull();
    // About forty keystrokes, each re-rendering the whole editor: on a loaded machine this takes longer than most.
  }, 40_000);
});

describe('a save refused for a rule', () => {
  it("puts each message under the rule's field, the toast says only what no field shows, and no key shows", async () => {
    const refusal = {
      title: 'One or more validation errors occurred.',
      status: 400,
      errors: {
        'transformations.0.rules.1.to': ['To is required'],
        'transformations.0.rules.0.salt': ['Salt is required'],
        'transformations.0.rules.0': ['Invalid option'],
        timeoutMs: ['Timeout ms must be at most 300000'],
      },
    };
    fakeApi({ ...routes(), 'PUT /api/SqlDataSource': { status: 400, body: refusal } });
    const user = userEvent.setup();
    await openAndRun(user);
    const save = screen.getByRole('button', { name: 'Save' });
    await waitFor(() => expect(save.hasAttribute('disabled')).toBe(false));
    await user.click(save);

    const first = screen.getByRole('group', { name: 'Transformation 1' });
    const rename = within(first).getByRole('group', { name: 'Rule 2 of transformation 1' });
    const newName = within(rename).getByRole('textbox', { name: 'New name' });
    await waitFor(() => expect(newName.getAttribute('aria-invalid')).toBe('true'));
    expect(within(rename).getByText('To is required')).toBeTruthy();
    // The mask keeps its ends (no salt field): that message, and the rule's own, show under the rule.
    const mask = within(first).getByRole('group', { name: 'Rule 1 of transformation 1' });
    expect(within(mask).getByText('Salt is required')).toBeTruthy();
    expect(within(mask).getByText('Invalid option')).toBeTruthy();
    // The toast names the one field the form does not show, by its label.
    expect(await screen.findByText(/Timeout ms: Timeout ms must be at most 300000/)).toBeTruthy();
    expect(document.body.textContent).not.toMatch(/transformations\.|rules\.|Transformations 1|Rules \d/);
  }, 40_000);
});

describe('client tools in the asset editor', () => {
  it('ticks the tools whose snippets the page shows; the save carries the ticked ones with the asset', async () => {
    const api = fakeApi(routes());
    const user = userEvent.setup();
    await openAndRun(user);
    const tools = screen.getByRole('region', { name: 'Client tools' });
    expect((within(tools).getByRole('checkbox', { name: 'curl' }) as HTMLInputElement).checked).toBe(true);
    expect((within(tools).getByRole('checkbox', { name: 'Python' }) as HTMLInputElement).checked).toBe(true);
    expect((within(tools).getByRole('checkbox', { name: 'Power BI' }) as HTMLInputElement).checked).toBe(false);
    await user.click(within(tools).getByRole('checkbox', { name: 'Power BI' }));
    await user.click(within(tools).getByRole('checkbox', { name: 'Python' }));

    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.requests.some((r) => r.method === 'PUT')).toBe(true));
    // One request, saved in one transaction: no separate client-tool calls that could fail after the asset saved.
    const writes = api.requests.filter((r) => r.method !== 'GET' && r.path !== '/api/SqlDataSource/Preview');
    expect(writes.map((r) => [r.method, r.path])).toEqual([['PUT', '/api/SqlDataSource']]);
    expect(writes[0]?.body).toMatchObject({ uid: 'ds-1', clientTools: ['curl', 'powerbi'] });
  });
});
