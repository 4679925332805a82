import { useMutation } from '@tanstack/react-query';
import { testUnsavedWebApiConnection, testWebApiCredential } from '@datalab/contract/api/web-api';
import { apiCall } from '../../../lib/api-client.ts';
import type { WebApiConnectionSettings } from './update-web-api-connection.ts';
import { WEB_API_CONNECTION_FIELDS } from './update-web-api-connection.ts';

/**
 * Sends GET to the base URL of the settings on screen, saved or not, and answers the status, warnings and the
 * exchange. With a stored connection's id its stored allowed hosts apply.
 */
export function useTestWebApiConnection(collectionUid: string, connectionId?: number) {
  return useMutation({
    mutationFn: (settings: WebApiConnectionSettings) =>
      apiCall(testUnsavedWebApiConnection, {
        body: { ...settings, collectionUid, connectionId },
        inlineFields: WEB_API_CONNECTION_FIELDS,
      }),
  });
}

/** Sends GET to the stored connection's base URL with one of its credentials: is it accepted? */
export function useTestWebApiCredential(connectionId: number) {
  return useMutation({
    mutationFn: (credentialId: number) =>
      apiCall(testWebApiCredential, { params: { id: String(connectionId), credId: String(credentialId) } }),
  });
}
