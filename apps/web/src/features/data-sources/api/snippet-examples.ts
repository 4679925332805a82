import { useQuery } from '@tanstack/react-query';
import { dataSourceExamples } from '@datalab/contract/snippets';
import type { FormParameter } from '../parameters/definition.ts';
import { dataSourceKeys } from '../keys.ts';
import { fetchParameterData } from './get-parameter-data.ts';

const NONE: Record<string, unknown> = {};

/**
 * The first allowed value of each required dropdown (values from a parameter data source) that has neither a value
 * nor a default, asked with the values before it: what the snippets send in its place, so that they run as shown.
 */
export function useDataSourceExamples(
  assetUid: string,
  parameters: readonly FormParameter[],
  values: Record<string, unknown>,
): Record<string, unknown> {
  const needed = parameters.some((p) => p.allowedValues?.kind === 'dataSource' && p.required);
  const query = useQuery({
    queryKey: [...dataSourceKeys.detail(assetUid), 'snippet-examples', values],
    queryFn: ({ signal }) =>
      dataSourceExamples(parameters, values, async (parameter, parents) => {
        const reply = await fetchParameterData(parameter.id, parents, signal);
        return reply.options;
      }),
    enabled: needed,
    staleTime: 60_000,
  });
  return query.data ?? NONE;
}
