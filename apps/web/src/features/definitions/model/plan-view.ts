import {
  definitionKinds,
  type DefinitionAction,
  type DefinitionChange,
  type DefinitionKind,
} from '@datalab/contract/api/definitions';

// How a plan reads on screen: its changes grouped by kind (in the document's order of kinds), counted by action,
// and each value of a difference as text people read.

export const kindLabels: Record<DefinitionKind, { one: string; many: string }> = {
  collection: { one: 'Collection', many: 'Collection' },
  sqlConnection: { one: 'SQL connection', many: 'SQL connections' },
  webApiConnection: { one: 'Web API connection', many: 'Web API connections' },
  dataAsset: { one: 'Data asset', many: 'Data assets' },
  dataRole: { one: 'Data role', many: 'Data roles' },
};

export const actionLabels: Record<DefinitionAction, string> = { create: 'Create', update: 'Update', delete: 'Delete' };
export const actionColors: Record<DefinitionAction, string> = { create: 'teal', update: 'blue', delete: 'red' };

export interface KindGroup {
  kind: DefinitionKind;
  label: string;
  changes: DefinitionChange[];
}

export function groupByKind(changes: readonly DefinitionChange[]): KindGroup[] {
  return definitionKinds
    .map((kind) => {
      const ofKind = changes.filter((change) => change.kind === kind);
      return { kind, label: ofKind.length === 1 ? kindLabels[kind].one : kindLabels[kind].many, changes: ofKind };
    })
    .filter((group) => group.changes.length > 0);
}

export function countByAction(changes: readonly DefinitionChange[]): Record<DefinitionAction, number> {
  const counts = { create: 0, update: 0, delete: 0 };
  for (const change of changes) counts[change.action] += 1;
  return counts;
}

/** '2 to create, 1 to update, 1 to delete' — the actions that occur only. */
export function countSentence(changes: readonly DefinitionChange[], { done = false } = {}): string {
  const counts = countByAction(changes);
  const words = done
    ? { create: 'created', update: 'updated', delete: 'deleted' }
    : { create: 'to create', update: 'to update', delete: 'to delete' };
  return (['create', 'update', 'delete'] as const)
    .filter((action) => counts[action] > 0)
    .map((action) => `${counts[action]} ${words[action]}`)
    .join(', ');
}

export function deletions(changes: readonly DefinitionChange[]): DefinitionChange[] {
  return changes.filter((change) => change.action === 'delete');
}

export interface ShownValue {
  text: string;
  /** Absent on this side (a field added or removed). */
  isAbsent: boolean;
  /** Spans lines (SQL, a list, an object): shown as a block. */
  isBlock: boolean;
}

/** A difference's value as text: text as it is, absence as 'not set', anything else as indented JSON. */
export function shownValue(value: unknown): ShownValue {
  if (value === undefined) return { text: 'not set', isAbsent: true, isBlock: false };
  const text = typeof value === 'string' ? value : (JSON.stringify(value, null, 2) ?? String(value));
  return { text, isAbsent: false, isBlock: text.includes('\n') };
}

/** A file name for the collection's definition: its name without the characters file systems refuse. */
export function definitionFileName(collectionName: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is removed
  const safe = collectionName.replace(/[\\/:*?"<>|\u0000-\u001f]+/gu, '_').trim();
  return `${safe || 'collection'}.datalab.yaml`;
}
