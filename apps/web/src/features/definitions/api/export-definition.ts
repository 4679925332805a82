import { useQuery } from '@tanstack/react-query';
import { callPath } from '@datalab/contract/call';
import { getCollectionDefinition } from '@datalab/contract/api/definitions';
import { apiFile } from '../../../lib/api-file.ts';
import { definitionKeys } from '../keys.ts';

/** The collection's definition as YAML text, exactly as the server writes it (Owner). */
export async function fetchDefinitionYaml(uid: string, signal?: AbortSignal): Promise<string> {
  const path = callPath(getCollectionDefinition.path, { uid });
  const blob = await apiFile(path, { signal, accept: 'application/yaml', quietStatuses: [404] });
  return blob.text();
}

/** Asked when the Export dialog opens, and again each time: the definition is the collection's current state. */
export function useDefinitionYaml(uid: string, isEnabled: boolean) {
  return useQuery({
    queryKey: definitionKeys.document(uid),
    queryFn: ({ signal }) => fetchDefinitionYaml(uid, signal),
    enabled: isEnabled,
    staleTime: 0,
    gcTime: 0,
  });
}
