import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderUi } from '../../test/render-ui.tsx';
import { ResultGrid } from './ResultGrid.tsx';

// jsdom lays nothing out: the scroller reports the height it would have, so the virtualiser has a window to fill.
const clientHeight = Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'clientHeight');
beforeAll(() => {
  Object.defineProperty(HTMLElement.prototype, 'clientHeight', { configurable: true, get: () => 480 });
});
afterAll(() => {
  if (clientHeight) Object.defineProperty(HTMLElement.prototype, 'clientHeight', clientHeight);
});

const columns = [
  { name: 'id', type: 'integer' },
  { name: 'email', type: 'string' },
  { name: 'total', type: 'decimal' },
];

function manyRows(count: number) {
  return Array.from({ length: count }, (_, i) => ({
    id: i + 1,
    email: `user${i + 1}@shop.test`,
    total: (i * 7) % 1000,
  }));
}

function bodyRows() {
  const grid = screen.getByRole('region', { name: 'Result' });
  return within(grid).getAllByRole('row').slice(1);
}

const firstCells = () => bodyRows().map((row) => within(row).getAllByRole('cell')[1]?.textContent);

describe('ResultGrid', () => {
  it('renders only the rows in view of a 100,000-row result, with the row count', async () => {
    renderUi(<ResultGrid label="Result" columns={columns} rows={manyRows(100_000)} />);
    await screen.findByRole('button', { name: 'Select row 1' });
    expect(screen.getByText('100,000 rows')).toBeTruthy();
    const rendered = bodyRows();
    expect(rendered.length).toBeGreaterThan(10);
    expect(rendered.length).toBeLessThan(60);
    expect(firstCells().slice(0, 3)).toEqual(['1', '2', '3']);
    expect(screen.getByRole('table').getAttribute('aria-rowcount')).toBe('100001');
  });

  it('sorts by a column on the loaded rows, numbers as numbers and empty values last', async () => {
    const user = userEvent.setup();
    const rows = [
      { id: 10, email: 'b@x', total: null },
      { id: 9, email: 'a@x', total: 5 },
      { id: 100, email: null, total: 40 },
    ];
    renderUi(<ResultGrid label="Result" columns={columns} rows={rows} />);
    await user.click(screen.getByRole('button', { name: 'id' }));
    expect(firstCells()).toEqual(['9', '10', '100']);
    expect(screen.getByRole('columnheader', { name: 'id' }).getAttribute('aria-sort')).toBe('ascending');
    await user.click(screen.getByRole('button', { name: 'id' }));
    expect(firstCells()).toEqual(['100', '10', '9']);
    await user.click(screen.getByRole('button', { name: 'email' }));
    const emails = bodyRows().map((row) => within(row).getAllByRole('cell')[2]?.textContent);
    expect(emails).toEqual(['a@x', 'b@x', 'None']);
  });

  it('shows the rows at the scroll position, and only those', async () => {
    renderUi(<ResultGrid label="Result" columns={columns} rows={manyRows(100_000)} />);
    await screen.findByRole('button', { name: 'Select row 1' });
    const region = screen.getByRole('region', { name: 'Result' });
    Object.defineProperty(region, 'scrollTop', { configurable: true, value: 1000 * 30 });
    fireEvent.scroll(region);
    await screen.findByRole('button', { name: 'Select row 1001' });
    expect(screen.queryByRole('button', { name: 'Select row 1' })).toBeNull();
    expect(bodyRows().length).toBeLessThan(60);
    const row = screen.getByRole('button', { name: 'Select row 1001' }).closest('tr') as HTMLElement;
    expect(row.getAttribute('aria-rowindex')).toBe('1002');
    expect(within(row).getAllByRole('cell')[1]?.textContent).toBe('1001');
  });

  it('sorts 100,000 rows in slices, saying so meanwhile; empty values stay last when descending', async () => {
    const user = userEvent.setup();
    const rows = manyRows(100_000).map((row, i) => (i % 2 === 1 ? { ...row, total: null } : row));
    renderUi(<ResultGrid label="Result" columns={columns} rows={rows} />);
    await user.click(screen.getByRole('button', { name: 'total' }));
    // Sorting 100,000 rows takes more than one slice: the previous order stays, marked busy, until it is done.
    expect(screen.getByRole('table').getAttribute('aria-busy')).toBe('true');
    expect(screen.getByText('100,000 rows, sorting…')).toBeTruthy();
    await waitFor(() => expect(screen.getByRole('table').getAttribute('aria-busy')).toBe('false'), { timeout: 15_000 });
    // total = (i * 7) % 1000 on even i: 0 first, at ids 1, 1001, 2001… in the reply's order (a stable sort).
    expect(firstCells().slice(0, 3)).toEqual(['1', '1001', '2001']);
    await user.click(screen.getByRole('button', { name: 'total' }));
    await waitFor(() => expect(screen.getByRole('table').getAttribute('aria-busy')).toBe('false'), { timeout: 15_000 });
    const totals = bodyRows().map((row) => within(row).getAllByRole('cell')[3]?.textContent);
    expect(totals.slice(0, 2)).toEqual(['998', '998']);
    const region = screen.getByRole('region', { name: 'Result' });
    Object.defineProperty(region, 'scrollTop', { configurable: true, value: 99_990 * 30 });
    fireEvent.scroll(region);
    const last = await screen.findByRole('button', { name: 'Select row 100000' });
    expect(within(last.closest('tr') as HTMLElement).getAllByRole('cell')[3]?.textContent).toBe('None');
  });

  it('selects and copies the rows as they are shown after sorting', async () => {
    const user = userEvent.setup();
    const rows = [
      { id: 10, email: 'b@x', total: 1 },
      { id: 9, email: 'a@x', total: 2 },
      { id: 100, email: 'c@x', total: 3 },
    ];
    renderUi(<ResultGrid label="Result" columns={columns} rows={rows} />);
    await user.click(screen.getByRole('button', { name: 'id' }));
    await user.click(screen.getByRole('button', { name: 'Select row 1' }));
    await user.click(screen.getByRole('button', { name: 'Copy selected rows' }));
    expect(await navigator.clipboard.readText()).toBe('id\temail\ttotal\n9\ta@x\t2');
    await user.keyboard('{Shift>}');
    await user.click(screen.getByRole('button', { name: 'Select row 2' }));
    await user.keyboard('{/Shift}');
    expect(screen.getByText('3 rows, 2 selected')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Copy selected rows' }));
    expect(await navigator.clipboard.readText()).toBe('id\temail\ttotal\n9\ta@x\t2\n10\tb@x\t1');
    // The selection belongs to the rows, not the positions: reversed, the same two rows are still selected.
    await user.click(screen.getByRole('button', { name: 'id' }));
    expect(firstCells()).toEqual(['100', '10', '9']);
    expect(bodyRows().map((row) => row.getAttribute('aria-selected'))).toEqual(['false', 'true', 'true']);
  });

  it('shows an empty value as None', async () => {
    renderUi(<ResultGrid label="Result" columns={columns} rows={[{ id: 1, email: null, total: 2.5 }]} />);
    await screen.findByRole('button', { name: 'Select row 1' });
    const cells = within(bodyRows()[0] as HTMLElement).getAllByRole('cell');
    expect(cells.map((cell) => cell.textContent)).toEqual(['1', '1', 'None', '2.5']);
  });

  it('copies the whole result, then only the selected rows, as TSV', async () => {
    const user = userEvent.setup();
    const rows = [
      { id: 1, email: 'tab\there', total: 3 },
      { id: 2, email: null, total: 4 },
      { id: 3, email: 'c@x', total: 5 },
    ];
    renderUi(<ResultGrid label="Result" columns={columns} rows={rows} />);
    await screen.findByRole('button', { name: 'Select row 3' });
    await user.click(screen.getByRole('button', { name: 'Copy all rows' }));
    expect(await navigator.clipboard.readText()).toBe('id\temail\ttotal\n1\t"tab\there"\t3\n2\t\t4\n3\tc@x\t5');

    await user.click(screen.getByRole('button', { name: 'Select row 3' }));
    await user.click(screen.getByRole('button', { name: 'Select row 2' }));
    expect(screen.getByText('3 rows, 2 selected')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Copy selected rows' }));
    expect(await navigator.clipboard.readText()).toBe('id\temail\ttotal\n2\t\t4\n3\tc@x\t5');
  });

  it('resizes a column by dragging its edge', () => {
    renderUi(<ResultGrid label="Result" columns={columns} rows={manyRows(3)} />);
    const header = screen.getByRole('columnheader', { name: 'email' });
    const before = Number.parseFloat(header.style.width);
    const handle = header.querySelector('[role="presentation"]') as HTMLElement;
    fireEvent.mouseDown(handle, { clientX: 100 });
    fireEvent.mouseMove(document, { clientX: 160 });
    fireEvent.mouseUp(document, { clientX: 160 });
    expect(Number.parseFloat(screen.getByRole('columnheader', { name: 'email' }).style.width)).toBe(before + 60);
  });

  it('resizes a column from the keyboard too (Alt+Arrow on its header)', async () => {
    const user = userEvent.setup();
    renderUi(<ResultGrid label="Result" columns={columns} rows={manyRows(3)} />);
    const width = () => Number.parseFloat(screen.getByRole('columnheader', { name: 'email' }).style.width);
    const before = width();
    screen.getByRole('button', { name: 'email' }).focus();
    await user.keyboard('{Alt>}{ArrowRight}{ArrowRight}{/Alt}');
    expect(width()).toBe(before + 40);
    await user.keyboard('{Alt>}{ArrowLeft}{/Alt}');
    expect(width()).toBe(before + 20);
  });
});
