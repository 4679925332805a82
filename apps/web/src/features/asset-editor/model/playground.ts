import type { ParameterType } from '@datalab/contract/parameters';
import { emptyDraft, newParameter, type AssetDraft, type AssetKind, type ParameterDraft } from './asset-draft.ts';
import { emptyRequest, requestOf, type RequestDraft } from './request-draft.ts';

// The playground's draft: a connection, SQL or a request, and for each placeholder found a type and a value. Nothing
// is stored; "Save as data asset" hands the editor a full asset draft built from it (the history entry's state
// carries it), where it is named, described, run again and saved.

export interface PlaygroundParameter {
  type: ParameterType;
  list: boolean;
}

export interface PlaygroundDraft {
  kind: AssetKind;
  connectionId: number | null;
  sql: string;
  request: RequestDraft;
  credentialId: number | null;
  /** Settings of the placeholders seen so far, by name (kept while a name is retyped). */
  parameters: Record<string, PlaygroundParameter>;
  timeoutMs: number;
}

export function emptyPlayground(connectionId: number | null, kind: AssetKind, credentialId: number | null = null) {
  const draft: PlaygroundDraft = {
    kind,
    connectionId,
    sql: '',
    request: emptyRequest(),
    credentialId,
    parameters: {},
    timeoutMs: 30_000,
  };
  return draft;
}

/** The parameter definitions for the names the source uses: optional while playing, each with its chosen type. */
export function playgroundParameters(draft: PlaygroundDraft, names: readonly string[]): ParameterDraft[] {
  return names.map((name) => {
    const setting = draft.parameters[name];
    return { ...newParameter(name), required: false, type: setting?.type ?? 'string', list: setting?.list ?? false };
  });
}

/** The asset draft the editor opens with: the same source and connection, the parameters required as usual. */
export function assetDraftOf(draft: PlaygroundDraft, names: readonly string[]): AssetDraft {
  return {
    ...emptyDraft(draft.connectionId, draft.kind),
    timeoutMs: draft.timeoutMs,
    sql: draft.kind === 'sql' ? draft.sql : '',
    request: draft.kind === 'webapi' ? draft.request : emptyRequest(),
    credentialId: draft.kind === 'webapi' ? draft.credentialId : null,
    parameters: playgroundParameters(draft, names).map((parameter) => ({ ...parameter, required: true })),
  };
}

/** The asset draft as an AssetDraft for running: the same run the editor would make. */
export function runnableDraft(draft: PlaygroundDraft, names: readonly string[]): AssetDraft {
  return { ...assetDraftOf(draft, names), parameters: playgroundParameters(draft, names) };
}

/** Whether there is something to keep: a connection and some SQL or a request that can be sent. */
export function canSaveAsAsset(draft: PlaygroundDraft): boolean {
  if (draft.connectionId === null) return false;
  return draft.kind === 'sql' ? draft.sql.trim() !== '' : requestOf(draft.request).ok;
}

export const PLAYGROUND_DRAFT_STATE = 'playgroundDraft';

/** The asset draft carried by a history entry's state, when the playground put one there. */
export function assetDraftFromState(state: unknown): AssetDraft | undefined {
  if (typeof state !== 'object' || state === null || !(PLAYGROUND_DRAFT_STATE in state)) return undefined;
  const value: unknown = state[PLAYGROUND_DRAFT_STATE];
  if (typeof value !== 'object' || value === null) return undefined;
  const looksRight = 'kind' in value && 'request' in value && 'sql' in value && 'parameters' in value;
  // Its own shape, written by this app in this tab: enough to tell it from anything else in the state.
  return looksRight ? (value as AssetDraft) : undefined;
}
