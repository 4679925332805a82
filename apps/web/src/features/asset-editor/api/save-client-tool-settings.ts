import { useMutation, useQueryClient } from '@tanstack/react-query';
import { putClientToolConfiguration, type ClientTool } from '@datalab/contract/api/data-sources';
import { apiCall } from '../../../lib/api-client.ts';
import { invalidateScopes } from '../../../lib/query-scopes.ts';

/** Saves each given tool's settings (PUT per tool: made when missing, replaced otherwise). */
export function useSaveClientToolSettings(assetUid: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (settings: [ClientTool, Record<string, unknown>][]) => {
      for (const [tool, values] of settings) {
        await apiCall(putClientToolConfiguration, { params: { id: assetUid }, body: { tool, settings: values } });
      }
    },
    onSuccess: () => invalidateScopes(queryClient, 'dataSources'),
  });
}
