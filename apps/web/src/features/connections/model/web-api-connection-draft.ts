import type { WebApiConnection } from '@datalab/contract/api/web-api';
import { recordOf, rowsOf, type KeyValueRow } from '../../../components/forms/key-value.ts';
import type { WebApiConnectionSettings } from '../api/update-web-api-connection.ts';

// The form's copy of a Web API connection. Credentials are not part of it: they are saved one by one on a stored
// connection. The allowed hosts are sent only by someone who may change them, and only when they changed, so an
// Owner who is not an administrator can still save the rest.

export interface WebApiConnectionDraft {
  name: string;
  description: string;
  baseUrl: string;
  headers: KeyValueRow[];
  allowedHosts: string[];
  connectTimeoutMs: number;
  headersTimeoutMs: number;
  bodyTimeoutMs: number;
  /** The largest reply, in KiB (the API takes bytes). */
  maxReplyKb: number;
  maxPages: number;
  maxConnections: number;
  acquireTimeoutMs: number;
  retries: number;
}

export function webApiDraftOf(connection: WebApiConnection): WebApiConnectionDraft {
  return {
    name: connection.name,
    description: connection.description,
    baseUrl: connection.baseUrl,
    headers: rowsOf(connection.headers),
    allowedHosts: [...connection.allowedHosts],
    connectTimeoutMs: connection.connectTimeoutMs,
    headersTimeoutMs: connection.headersTimeoutMs,
    bodyTimeoutMs: connection.bodyTimeoutMs,
    maxReplyKb: Math.max(1, Math.round(connection.maxReplyBytes / 1024)),
    maxPages: connection.maxPages,
    maxConnections: connection.maxConnections,
    acquireTimeoutMs: connection.acquireTimeoutMs,
    retries: connection.retries,
  };
}

/** A connection not created yet, with the server's defaults. */
export function newWebApiDraft(): WebApiConnectionDraft {
  return {
    name: '',
    description: '',
    baseUrl: 'https://',
    headers: [],
    allowedHosts: [],
    connectTimeoutMs: 5_000,
    headersTimeoutMs: 15_000,
    bodyTimeoutMs: 30_000,
    maxReplyKb: 16 * 1024,
    maxPages: 1_000,
    maxConnections: 10,
    acquireTimeoutMs: 2_000,
    retries: 2,
  };
}

const sameHosts = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((host, i) => host === b[i]);

/**
 * The settings to send. `storedHosts` is the stored list (none for a new connection); the list is sent only when
 * the caller may change it and it differs, since the server audits every change and refuses it from anyone else.
 */
export function webApiSettingsOf(
  draft: WebApiConnectionDraft,
  access: { canChangeAllowedHosts: boolean; storedHosts: readonly string[] },
): WebApiConnectionSettings {
  const hosts = draft.allowedHosts.map((host) => host.trim()).filter((host) => host !== '');
  const settings: WebApiConnectionSettings = {
    name: draft.name,
    description: draft.description,
    baseUrl: draft.baseUrl.trim(),
    headers: recordOf(draft.headers),
    connectTimeoutMs: draft.connectTimeoutMs,
    headersTimeoutMs: draft.headersTimeoutMs,
    bodyTimeoutMs: draft.bodyTimeoutMs,
    maxReplyBytes: draft.maxReplyKb * 1024,
    maxPages: draft.maxPages,
    maxConnections: draft.maxConnections,
    acquireTimeoutMs: draft.acquireTimeoutMs,
    retries: draft.retries,
  };
  if (access.canChangeAllowedHosts && !sameHosts(hosts, access.storedHosts)) settings.allowedHosts = hosts;
  return settings;
}
