import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderUi } from '../../test/render-ui.tsx';
import { useFilterState } from './use-filter-state.ts';

const kinds = ['personal', 'collection'] as const;

function Probe() {
  const { page, filter, setFilter, setPage } = useFilterState<'kind' | 'owner'>();
  return (
    <>
      <output aria-label="State">{`${filter('kind', kinds) ?? '-'} ${filter('owner') ?? '-'} ${page}`}</output>
      <button onClick={() => setFilter('kind', 'collection')}>Kind</button>
      <button onClick={() => setFilter('owner', null)}>No owner</button>
      <button onClick={() => setPage(3)}>Page 3</button>
      <button onClick={() => setPage(1)}>Page 1</button>
    </>
  );
}

const state = () => screen.getByRole('status', { name: 'State' }).textContent;

describe('useFilterState', () => {
  it('reads only the listed values of a filter, any value of an open one, and a bad page as page 1', () => {
    renderUi(<Probe />, { path: '/list?kind=other&owner=ada&page=x' });
    expect(state()).toBe('- ada 1');
  });

  it('keeps the page in the URL, page 1 without one, and goes back to page 1 when a filter changes', async () => {
    const user = userEvent.setup();
    const { router } = renderUi(<Probe />, { path: '/list?owner=ada' });
    const search = () => router.state.location.search;

    await user.click(screen.getByRole('button', { name: 'Page 3' }));
    await waitFor(() => expect(search()).toBe('?owner=ada&page=3'));
    expect(state()).toBe('- ada 3');
    await user.click(screen.getByRole('button', { name: 'Page 1' }));
    await waitFor(() => expect(search()).toBe('?owner=ada'));

    await user.click(screen.getByRole('button', { name: 'Page 3' }));
    await user.click(screen.getByRole('button', { name: 'Kind' }));
    await waitFor(() => expect(search()).toBe('?owner=ada&kind=collection'));
    expect(state()).toBe('collection ada 1');
    await user.click(screen.getByRole('button', { name: 'No owner' }));
    await waitFor(() => expect(search()).toBe('?kind=collection'));
  });
});
