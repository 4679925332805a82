import { ApiError } from '../../../lib/api-error.ts';
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

/**
 * The last save's refusals of parameter fields, keyed '1.min' like the live checks, while the parameters are still
 * the ones sent: a field changed since may be valid now, and its old message must not stay under it.
 */
export function savedParameterErrors(
  save: { error: unknown; variables: SaveAssetInput | undefined },
  draft: AssetDraft,
): Record<string, string[]> {
  if (!(save.error instanceof ApiError) || !save.variables) return {};
  const sent = Object.values(save.variables)[0];
  if (JSON.stringify(sent?.parameters) !== JSON.stringify(definitionsOf(draft.parameters))) return {};
  const found: Record<string, string[]> = {};
  for (const [key, list] of Object.entries(save.error.errors)) {
    if (key.startsWith('parameters.')) found[key.slice('parameters.'.length)] = list;
  }
  return found;
}

/**
 * The last save's refusals of rules ('transformations.0.rules.1.column'), while the transformations are still the
 * ones sent: once they change, the live preview says what still holds.
 */
export function savedTransformationErrors(
  save: { error: unknown; variables: SaveAssetInput | undefined },
  draft: AssetDraft,
): Record<string, string[]> {
  if (!(save.error instanceof ApiError) || !save.variables) return {};
  const sent = Object.values(save.variables)[0];
  if (JSON.stringify(sent?.transformations) !== JSON.stringify(transformationInputs(draft.transformations))) return {};
  return Object.fromEntries(Object.entries(save.error.errors).filter(([key]) => key.startsWith('transformations.')));
}
