import { useMutation } from '@tanstack/react-query';
import { planCollectionDefinition, type DefinitionRequest } from '@datalab/contract/api/definitions';
import { apiCall } from '../../../lib/api-client.ts';

/** The changes a document would make, touching nothing. A refused document is shown in the dialog, not a toast. */
export function planDefinition(uid: string, body: DefinitionRequest) {
  return apiCall(planCollectionDefinition, { params: { uid }, body, quietStatuses: [400, 404, 409, 413] });
}

export function usePlanDefinition(uid: string) {
  return useMutation({ mutationFn: (body: DefinitionRequest) => planDefinition(uid, body) });
}
