import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { DefinitionPlan } from '@datalab/contract/api/definitions';
import { fakeApi, type FakeRequest } from '../../../test/fake-api.ts';
import { renderUi, toastMessages } from '../../../test/render-ui.tsx';
import { ExportDefinitionDialog } from './ExportDefinitionDialog.tsx';
import { ImportDefinitionDialog } from './ImportDefinitionDialog.tsx';

const PLAN = 'POST /api/DataSourceCollection/col-1/Definition/Plan';
const APPLY = 'POST /api/DataSourceCollection/col-1/Definition/Apply';
const DOCUMENT = 'apiVersion: datalab/v1\nname: Sales\ndescription: New words\nprune: true\n';
const collection = { uid: 'col-1', name: 'Sales' };

const changes: DefinitionPlan['changes'] = [
  {
    kind: 'collection',
    name: 'Sales',
    action: 'update',
    differences: [{ path: 'description', before: 'Old words', after: 'New words' }],
  },
  { kind: 'dataRole', name: 'Analysts', action: 'delete', differences: [] },
];

const sent = (requests: FakeRequest[], route: string) =>
  requests.filter((request) => `${request.method} ${request.path}` === route).map((request) => request.body);

async function pasteDocument(user: ReturnType<typeof userEvent.setup>, text: string) {
  await user.click(screen.getByRole('textbox', { name: 'Definition document' }));
  await user.paste(text);
}

describe('ImportDefinitionDialog', () => {
  it('plans, asks for the missing secret, plans again, confirms naming the deletion, and applies', async () => {
    const api = fakeApi({
      [PLAN]: (request) => {
        const { secrets } = request.body as { secrets: Record<string, string> };
        return { body: { changes, missingSecrets: secrets['shop-password'] ? [] : ['shop-password'] } };
      },
      [APPLY]: { body: { changes, missingSecrets: [], applied: true } },
    });
    const user = userEvent.setup();
    const onClose = vi.fn();
    renderUi(<ImportDefinitionDialog collection={collection} isOpen onClose={onClose} />);

    await pasteDocument(user, DOCUMENT);
    await user.click(screen.getByRole('button', { name: 'Plan' }));
    expect(await screen.findByText('1 to update, 1 to delete')).toBeTruthy();
    expect(sent(api.requests, PLAN)).toEqual([{ document: DOCUMENT, secrets: {} }]);
    const row = within(screen.getByRole('table', { name: 'Fields of Sales that change' })).getAllByRole('row')[1];
    expect(row?.textContent).toBe('descriptionOld wordsNew words');
    // While a secret is missing there is nothing to apply.
    expect(screen.queryByRole('button', { name: 'Apply…' })).toBeNull();

    await user.type(screen.getByLabelText(/shop-password/), 'pa$$word');
    expect(screen.getByText(/changed since this plan/)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Plan again' }));
    await waitFor(() => expect(sent(api.requests, PLAN)).toHaveLength(2));
    expect(sent(api.requests, PLAN)[1]).toEqual({ document: DOCUMENT, secrets: { 'shop-password': 'pa$$word' } });

    await user.click(await screen.findByRole('button', { name: 'Apply…' }));
    const confirm = screen.getByRole('region', { name: 'Confirm apply' });
    expect(within(confirm).getByText('This makes 1 to update, 1 to delete in one transaction.')).toBeTruthy();
    expect(within(within(confirm).getByRole('list', { name: 'Deleted' })).getByText('Data role Analysts')).toBeTruthy();
    expect(sent(api.requests, APPLY)).toHaveLength(0);

    await user.click(within(confirm).getByRole('button', { name: 'Apply and delete 1' }));
    expect(await screen.findByText('Applied to Sales: 1 updated, 1 deleted.')).toBeTruthy();
    expect(sent(api.requests, APPLY)).toEqual([{ document: DOCUMENT, secrets: { 'shop-password': 'pa$$word' } }]);
    expect(toastMessages()).toContain('Sales: 1 updated, 1 deleted');
    await user.click(screen.getByRole('button', { name: 'Done' }));
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('shows a refused document field by field with its path, without a toast, and forgets the plan on an edit', async () => {
    const api = fakeApi({
      [PLAN]: (request) =>
        (request.body as { document: string }).document.includes('dependsOn')
          ? {
              status: 400,
              body: {
                title: 'One or more validation errors occurred.',
                status: 400,
                errors: { 'document.assets.1.parameters.0.dependsOn': ['Depends-on makes a cycle: a → b → a'] },
              },
            }
          : { body: { changes: [], missingSecrets: [] } },
    });
    const user = userEvent.setup();
    renderUi(<ImportDefinitionDialog collection={collection} isOpen onClose={vi.fn()} />);

    await pasteDocument(user, DOCUMENT);
    await user.click(screen.getByRole('button', { name: 'Plan' }));
    expect(await screen.findByText('Nothing to change')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Apply/ })).toBeNull();

    await pasteDocument(user, 'assets: [{dependsOn: a}]\n');
    // The plan of the previous text is gone as soon as the text changes.
    expect(screen.queryByText('Nothing to change')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Plan' }));
    const refused = await screen.findByRole('list', { name: 'Refused fields' });
    expect(refused.textContent).toBe('document.assets.1.parameters.0.dependsOn Depends-on makes a cycle: a → b → a');
    expect(toastMessages()).toEqual([]);
    expect(api.requests).toHaveLength(2);
  });

  it('refuses a document larger than the server accepts before sending it', async () => {
    const api = fakeApi({});
    const user = userEvent.setup();
    renderUi(<ImportDefinitionDialog collection={collection} isOpen onClose={vi.fn()} />);
    const upload = new File(['x'.repeat(5 * 1024 * 1024 + 1)], 'big.yaml', { type: 'application/yaml' });
    // Mantine's FileButton keeps its input outside the dialog, in the document's body.
    const input = document.querySelector<HTMLInputElement>('input[type="file"]');
    if (!input) throw new Error('no file input');
    await user.upload(input, upload);
    expect(await screen.findByText(/big.yaml is too large/)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Plan' })).toHaveProperty('disabled', true);
    expect(api.requests).toHaveLength(0);
  });
});

describe('ExportDefinitionDialog', () => {
  it('asks for YAML and shows the document as the server wrote it', async () => {
    const api = fakeApi({ 'GET /api/DataSourceCollection/col-1/Definition': { text: DOCUMENT } });
    renderUi(<ExportDefinitionDialog collection={collection} isOpen onClose={vi.fn()} />);
    expect((await screen.findByLabelText('Sales.datalab.yaml')).textContent).toBe(DOCUMENT);
    expect(api.requests[0]?.headers.get('accept')).toBe('application/yaml');
    expect(screen.getByRole('button', { name: 'Download Sales.datalab.yaml' })).toBeTruthy();
  });
});

describe('DefinitionErrors', () => {
  it("shows the reply's title for a refusal without fields", async () => {
    fakeApi({ [PLAN]: { status: 404, body: { title: 'Collection with id col-1 does not exist', status: 404 } } });
    const user = userEvent.setup();
    renderUi(<ImportDefinitionDialog collection={collection} isOpen onClose={vi.fn()} />);
    await pasteDocument(user, DOCUMENT);
    await user.click(screen.getByRole('button', { name: 'Plan' }));
    expect((await screen.findByRole('alert')).textContent).toContain('Collection with id col-1 does not exist');
    expect(toastMessages()).toEqual([]);
  });
});
