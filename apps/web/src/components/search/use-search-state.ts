import { useCallback } from 'react';
import { useSearchParams } from 'react-router';
import { clampPage, pageCount } from './clamp-page.ts';

export interface SearchState {
  search: string;
  page: number;
  /** A new search starts again at page 1; typing adds one history entry and then refines it in place. */
  setSearch: (search: string, options?: { isTyping?: boolean }) => void;
  setPage: (page: number) => void;
  /** Brings a page beyond the last one (after a delete, an old link) back to the last page. */
  clampToTotal: (totalCount: number, pageSize: number) => void;
}

const positive = (value: string | null) => {
  const number = Number(value);
  return Number.isInteger(number) && number >= 1 ? number : 1;
};

/** The search and page of a list screen, kept in the URL (?search=…&page=…) so Back and links keep them. */
export function useSearchState(): SearchState {
  const [params, setParams] = useSearchParams();
  const search = params.get('search') ?? '';
  const page = positive(params.get('page'));

  const update = useCallback(
    (next: { search?: string; page?: number }, replace = false) => {
      setParams(
        (current) => {
          const merged = new URLSearchParams(current);
          if (next.search !== undefined) {
            if (next.search) merged.set('search', next.search);
            else merged.delete('search');
          }
          if (next.page !== undefined) {
            if (next.page > 1) merged.set('page', String(next.page));
            else merged.delete('page');
          }
          return merged;
        },
        { replace },
      );
    },
    [setParams],
  );

  // Typing starts one history entry and refines it: Back leaves the search, not one letter.
  const setSearch = useCallback(
    (value: string, options?: { isTyping?: boolean }) =>
      update({ search: value, page: 1 }, options?.isTyping === true && search !== ''),
    [update, search],
  );
  const setPage = useCallback((value: number) => update({ page: value }), [update]);
  const clampToTotal = useCallback(
    (totalCount: number, pageSize: number) => {
      const last = pageCount(Math.ceil(totalCount / pageSize));
      if (page > last) update({ page: clampPage(page, last) }, true);
    },
    [page, update],
  );
  return { search, page, setSearch, setPage, clampToTotal };
}
