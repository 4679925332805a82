import type { SaveAssetInput } from '../api/save-asset.ts';
import { definitionsOf, type AssetDraft } from './asset-draft.ts';
import { requestOf } from './request-draft.ts';
import { transformationInputs } from './transformation-draft.ts';

/** The save call for a draft: create (no stored uid) or change, SQL or Web API; null when it cannot be sent. */
export function saveInputOf(draft: AssetDraft, target: { collectionUid: string; uid?: string }): SaveAssetInput | null {
  if (draft.connectionId === null) return null;
  const common = {
    connectionId: draft.connectionId,
    name: draft.name,
    description: draft.description,
    cacheTtlSeconds: draft.cacheTtlSeconds,
    rowCap: draft.rowCap,
    timeoutMs: draft.timeoutMs,
    maxExportRows: draft.maxExportRows,
    parameters: definitionsOf(draft.parameters),
    transformations: transformationInputs(draft.transformations),
    clientTools: draft.clientTools,
    mcpAvailable: draft.mcpAvailable,
  };
  const { uid, collectionUid } = target;
  if (draft.kind === 'sql') {
    const sql = { ...common, sql: draft.sql };
    return uid ? { update: { uid, ...sql } } : { create: { collectionUid, ...sql } };
  }
  const request = requestOf(draft.request);
  if (!request.ok) return null;
  const webApi = { ...common, request: request.request, credentialId: draft.credentialId };
  return uid ? { updateWebApi: { uid, ...webApi } } : { createWebApi: { collectionUid, ...webApi } };
}
