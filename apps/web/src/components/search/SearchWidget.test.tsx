import { MantineProvider } from '@mantine/core';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { SearchWidget, type SearchWidgetProps } from './SearchWidget.tsx';

function renderWidget(props: Partial<SearchWidgetProps> = {}) {
  const handlers = { onSearch: vi.fn<(keyword: string) => void>(), onPageChange: vi.fn<(page: number) => void>() };
  render(
    <MantineProvider env="test">
      <SearchWidget value="" page={1} totalPages={5} {...handlers} {...props}>
        <p>results</p>
      </SearchWidget>
    </MantineProvider>,
  );
  return handlers;
}

describe('SearchWidget', () => {
  it('searches on Enter and remembers the search', async () => {
    const user = userEvent.setup();
    const { onSearch } = renderWidget();
    await user.type(screen.getByRole('combobox', { name: 'Search' }), '  orders {Enter}');
    expect(onSearch).toHaveBeenCalledWith('orders');
    expect(JSON.parse(window.localStorage.getItem('searchKeywords') ?? '[]')).toEqual(['orders']);
    expect(screen.getByText('results')).toBeTruthy();
  });

  it('offers recent searches and runs a picked one', async () => {
    window.localStorage.setItem('searchKeywords', JSON.stringify(['customers', 'regions']));
    const user = userEvent.setup();
    const { onSearch } = renderWidget();
    await user.click(screen.getByRole('combobox', { name: 'Search' }));
    await user.click(await screen.findByRole('option', { name: 'regions' }));
    expect(onSearch).toHaveBeenCalledWith('regions');
    expect(JSON.parse(window.localStorage.getItem('searchKeywords') ?? '[]')).toEqual(['regions', 'customers']);
  });

  it('searches once for a suggestion chosen with the keyboard', async () => {
    window.localStorage.setItem('searchKeywords', JSON.stringify(['orders', 'customers']));
    const user = userEvent.setup();
    const { onSearch } = renderWidget();
    await user.type(screen.getByRole('combobox', { name: 'Search' }), 'ord');
    await user.keyboard('{ArrowDown}{Enter}');
    expect(onSearch.mock.calls).toEqual([['orders']]);
  });

  it('clamps a page typed beyond the total to the last page', async () => {
    const user = userEvent.setup();
    const { onPageChange } = renderWidget({ page: 2, totalPages: 5 });
    const goTo = screen.getByRole('textbox', { name: 'Go to page' });
    await user.clear(goTo);
    await user.type(goTo, '99{Enter}');
    expect(onPageChange).toHaveBeenLastCalledWith(5);
  });

  it('clamps a page below 1 to the first page and shows an out-of-range page as the last', async () => {
    const user = userEvent.setup();
    const { onPageChange } = renderWidget({ page: 12, totalPages: 3 });
    const goTo = screen.getByRole('textbox', { name: 'Go to page' });
    expect((goTo as HTMLInputElement).value).toBe('3');
    await user.clear(goTo);
    await user.type(goTo, '0{Enter}');
    expect(onPageChange).toHaveBeenLastCalledWith(1);
  });

  it('moves between pages with the page buttons', async () => {
    const user = userEvent.setup();
    const { onPageChange } = renderWidget({ page: 1, totalPages: 5 });
    await user.click(screen.getByRole('button', { name: '4' }));
    expect(onPageChange).toHaveBeenCalledWith(4);
    await user.click(screen.getByRole('button', { name: 'Last page' }));
    expect(onPageChange).toHaveBeenLastCalledWith(5);
  });
});
