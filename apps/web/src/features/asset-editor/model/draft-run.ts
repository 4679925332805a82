import type { DraftRunInput } from '../api/preview-asset.ts';
import { definitionsOf, type AssetDraft } from './asset-draft.ts';
import { requestOf } from './request-draft.ts';
import { transformationInputs } from './transformation-draft.ts';

// What running a draft sends (the SQL preview or the Web API "Try"), and the key of what was run: Save is offered
// once the draft as it is on screen has run, so any change to the source, the connection, the credential, the
// parameters or the transformations asks for another run.

/** What a run depends on; equal keys mean the same run. */
export function runKey(draft: AssetDraft): string {
  const source = draft.kind === 'sql' ? draft.sql : [requestOf(draft.request), draft.credentialId];
  return JSON.stringify([
    draft.kind,
    draft.connectionId,
    source,
    definitionsOf(draft.parameters),
    transformationInputs(draft.transformations),
  ]);
}

/** Why the draft cannot run yet, or null. */
export function runBlocker(draft: AssetDraft): string | null {
  if (draft.connectionId === null) return 'Choose a connection first.';
  if (draft.kind === 'sql') return draft.sql.trim() === '' ? 'Write the SQL first.' : null;
  const request = requestOf(draft.request);
  return request.ok ? null : request.error;
}

/** The values typed, empty ones left out (a required parameter without one is the server's 400). */
export function valuesOf(values: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== ''));
}

export function runInputOf(
  draft: AssetDraft,
  collectionUid: string,
  values: Readonly<Record<string, string>>,
): DraftRunInput | null {
  if (runBlocker(draft) !== null || draft.connectionId === null) return null;
  const common = {
    collectionUid,
    connectionId: draft.connectionId,
    parameters: definitionsOf(draft.parameters),
    transformations: transformationInputs(draft.transformations),
    values: valuesOf(values),
    timeoutMs: draft.timeoutMs,
  };
  if (draft.kind === 'sql') return { kind: 'sql', body: { ...common, sql: draft.sql } };
  const request = requestOf(draft.request);
  if (!request.ok) return null;
  return { kind: 'webapi', body: { ...common, request: request.request, credentialId: draft.credentialId } };
}
