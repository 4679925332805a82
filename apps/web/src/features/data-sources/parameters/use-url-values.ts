import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import type { FormParameter } from './definition.ts';
import { valuesFromSearch, valuesToSearch, type FormValue } from './form-values.ts';

/** The form's values live in the page's URL (replaced as they change), so a filled-in call can be shared. */
export function useUrlValues(parameters: readonly FormParameter[]) {
  const [params, setParams] = useSearchParams();
  const values = useMemo(() => valuesFromSearch(parameters, params), [parameters, params]);
  const setValue = useCallback(
    (name: string, value: FormValue) =>
      setParams((current) => valuesToSearch(parameters, { ...valuesFromSearch(parameters, current), [name]: value }), {
        replace: true,
      }),
    [parameters, setParams],
  );
  return { values, setValue };
}
