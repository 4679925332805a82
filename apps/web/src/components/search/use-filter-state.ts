import { useCallback } from 'react';
import { useSearchParams } from 'react-router';

export interface FilterState<F extends string> {
  page: number;
  /** The URL's value of filter `name`; with `values`, only one of them, anything else reading as no filter. */
  filter: {
    (name: F): string | undefined;
    <V extends string>(name: F, values: readonly V[]): V | undefined;
  };
  /** Sets a filter (no value removes it) and goes back to page 1. */
  setFilter: (name: F, value: string | null | undefined) => void;
  setPage: (page: number) => void;
}

/**
 * A list screen's filters (?kind=…) and page, kept in the URL so Back and links keep them. A filter changed goes back
 * to page 1; a list with a search box takes its page from useSearchState instead.
 */
export function useFilterState<F extends string = never>(): FilterState<F> {
  const [params, setParams] = useSearchParams();
  const page = Math.max(1, Number.parseInt(params.get('page') ?? '1', 10) || 1);

  function filter(name: F): string | undefined;
  function filter<V extends string>(name: F, values: readonly V[]): V | undefined;
  function filter(name: F, values?: readonly string[]) {
    const value = params.get(name) ?? undefined;
    return values ? values.find((candidate) => candidate === value) : value;
  }
  const setFilter = useCallback(
    (name: F, value: string | null | undefined) =>
      setParams((current) => {
        const next = new URLSearchParams(current);
        if (value) next.set(name, value);
        else next.delete(name);
        next.delete('page');
        return next;
      }),
    [setParams],
  );
  const setPage = useCallback(
    (value: number) =>
      setParams((current) => {
        const next = new URLSearchParams(current);
        if (value > 1) next.set('page', String(value));
        else next.delete('page');
        return next;
      }),
    [setParams],
  );
  return { page, filter, setFilter, setPage };
}
