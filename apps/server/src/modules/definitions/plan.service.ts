import type { DefinitionDocument } from '@datalab/contract/api/definition-document';
import type { DefinitionChange, DefinitionDifference, DefinitionKind } from '@datalab/contract/api/definitions';
import type { SecretBox } from '../../lib/secrets.ts';
import { connectionSecretRef, credentialSecretRef, documentOf } from './export.service.ts';
import type { CollectionState } from './repository.ts';

// Plan: the document against the collection's current state (its own export), thing by thing by name, touching
// nothing. Creates and updates come in the order they can be made (collection, connections, assets, roles), then,
// only with prune: true, the deletions of what the document leaves out (roles, assets, connections). A secret counts
// as changed when its reference changes or when a value sent for it differs from the one stored.

type Item = Record<string, unknown>;

/** JSON with object keys sorted: what "equal" means here (key order and defaults do not make a difference). */
export function stable(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Item).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

const keyOf = (item: unknown): string | undefined => {
  if (!item || typeof item !== 'object') return undefined;
  const o = item as Item;
  for (const field of ['name', 'tool', 'group', 'username'])
    if (typeof o[field] === 'string') return o[field] as string;
  return undefined;
};

/** The fields that differ, by path; lists of named things are matched by name (`parameters.country.type`). */
export function differences(before: unknown, after: unknown, path = ''): DefinitionDifference[] {
  if (stable(before) === stable(after)) return [];
  const at = (key: string) => (path ? `${path}.${key}` : key);
  const isObject = (v: unknown) => v !== null && typeof v === 'object' && !Array.isArray(v);
  if (isObject(before) && isObject(after)) {
    const b = before as Item;
    const a = after as Item;
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])];
    return keys.flatMap((key) => differences(b[key], a[key], at(key)));
  }
  if (Array.isArray(before) && Array.isArray(after)) {
    const bNames = before.map(keyOf);
    const aNames = after.map(keyOf);
    const named = [...bNames, ...aNames].every((n) => n !== undefined);
    if (named && new Set(bNames).size === bNames.length && new Set(aNames).size === aNames.length) {
      const bMap = new Map(before.map((item, i) => [bNames[i], item]));
      const aMap = new Map(after.map((item, i) => [aNames[i], item]));
      const names = [...new Set([...aNames, ...bNames])] as string[];
      const inner = names.flatMap((name) => differences(bMap.get(name), aMap.get(name), at(name)));
      const common = aNames.filter((n) => bMap.has(n));
      const reordered = stable(bNames.filter((n) => aMap.has(n))) !== stable(common);
      return reordered ? [{ path: at('order'), before: bNames, after: aNames }, ...inner] : inner;
    }
  }
  return [
    { path: path || '.', ...(before === undefined ? {} : { before }), ...(after === undefined ? {} : { after }) },
  ];
}

export const lower = (name: string) => name.toLowerCase();

/** What a plan needs besides the document: the state, the secrets sent, and the key that opens stored ones. */
export interface PlanInput {
  document: DefinitionDocument;
  state: CollectionState;
  secrets: Record<string, string>;
  box: SecretBox;
}

/** Secret references the collection holds a value for: reference → sealed value. */
export function heldSecrets(state: CollectionState): Map<string, string> {
  const held = new Map<string, string>();
  const byId = new Map(state.connections.map((c) => [c.id, c]));
  for (const c of state.connections) if (c.secret) held.set(connectionSecretRef(c), c.secret);
  for (const k of state.credentials) {
    const connection = byId.get(k.connection_id);
    if (k.secret && connection && !held.has(credentialSecretRef(connection, k)))
      held.set(credentialSecretRef(connection, k), k.secret);
  }
  return held;
}

/** Every secret reference a document names. */
export function referencesOf(document: DefinitionDocument): string[] {
  const refs = new Set<string>();
  for (const c of document.sqlConnections) if (c.password) refs.add(c.password.secret);
  for (const c of document.webApiConnections) for (const k of c.credentials) if (k.secret) refs.add(k.secret.secret);
  return [...refs].sort();
}

/** The value a reference stands for: the one sent, else the one held; undefined when neither. */
export function secretValue(input: PlanInput, held: Map<string, string>, ref: string): string | undefined {
  if (Object.hasOwn(input.secrets, ref)) return input.secrets[ref];
  const sealed = held.get(ref);
  return sealed === undefined ? undefined : input.box.open(sealed);
}

function byKey<T>(items: readonly T[], key: (item: T) => string): Map<string, T> {
  return new Map(items.map((item) => [lower(key(item)), item]));
}

/** Whether a secret sent for a stored reference differs from the value stored under it (same reference). */
function secretValueChanged(
  input: PlanInput,
  sealed: string | null,
  ref: string | undefined,
  oldRef: string | undefined,
) {
  if (!ref || ref !== oldRef || !sealed || !Object.hasOwn(input.secrets, ref)) return false;
  return input.box.open(sealed) !== input.secrets[ref];
}

export interface Plan {
  changes: DefinitionChange[];
  missingSecrets: string[];
}

export function planOf(input: PlanInput): Plan {
  const { document, state } = input;
  const current = documentOf(state);
  const held = heldSecrets(state);
  const creates: DefinitionChange[] = [];
  const deletes: DefinitionChange[] = [];
  const compare = <T extends object>(
    kind: DefinitionKind,
    name: (item: T) => string,
    before: readonly T[],
    after: readonly T[],
    extra: (b: T, a: T) => DefinitionDifference[] = () => [],
  ) => {
    const old = byKey(before, name);
    const next = byKey(after, name);
    for (const item of after) {
      const was = old.get(lower(name(item)));
      if (!was) creates.push({ kind, name: name(item), action: 'create', differences: [] });
      else {
        const diff = [...differences(was, item), ...extra(was, item)];
        if (diff.length > 0) creates.push({ kind, name: name(item), action: 'update', differences: diff });
      }
    }
    if (document.prune)
      for (const item of before)
        if (!next.has(lower(name(item))))
          deletes.unshift({ kind, name: name(item), action: 'delete', differences: [] });
  };

  const collectionDiff = differences(current.collection, document.collection);
  if (collectionDiff.length > 0)
    creates.push({ kind: 'collection', name: current.collection.name, action: 'update', differences: collectionDiff });

  const sqlRows = byKey(
    state.connections.filter((c) => c.kind === 'sql'),
    (c) => c.name,
  );
  compare(
    'sqlConnection',
    (c) => c.name,
    current.sqlConnections,
    document.sqlConnections,
    (b, a) => {
      const row = sqlRows.get(lower(b.name));
      return row && secretValueChanged(input, row.secret, a.password?.secret, b.password?.secret)
        ? [{ path: 'password.value' }]
        : [];
    },
  );

  const webRows = byKey(
    state.connections.filter((c) => c.kind === 'webapi'),
    (c) => c.name,
  );
  compare(
    'webApiConnection',
    (c) => c.name,
    current.webApiConnections,
    document.webApiConnections,
    (b, a) => {
      const row = webRows.get(lower(b.name));
      if (!row) return [];
      const stored = byKey(
        state.credentials.filter((k) => k.connection_id === row.id),
        (k) => k.name,
      );
      const was = byKey(b.credentials, (k) => k.name);
      return a.credentials.flatMap((k) => {
        const credential = stored.get(lower(k.name));
        const oldRef = was.get(lower(k.name))?.secret?.secret;
        return credential && secretValueChanged(input, credential.secret, k.secret?.secret, oldRef)
          ? [{ path: `credentials.${k.name}.secret.value` }]
          : [];
      });
    },
  );

  compare('dataAsset', (a) => a.name, current.dataAssets, document.dataAssets);
  const roleName = (r: { group?: string; username?: string }) =>
    r.group !== undefined ? `group:${r.group}` : `user:${r.username ?? ''}`;
  compare('dataRole', roleName, current.dataRoles.groups, document.dataRoles.groups);
  compare('dataRole', roleName, current.dataRoles.users, document.dataRoles.users);

  // Deletions: roles first, then assets (which use connections), then connections.
  const order: DefinitionKind[] = ['dataRole', 'dataAsset', 'webApiConnection', 'sqlConnection'];
  deletes.sort((x, y) => order.indexOf(x.kind) - order.indexOf(y.kind) || (x.name < y.name ? -1 : 1));

  const missingSecrets = referencesOf(document).filter((ref) => !Object.hasOwn(input.secrets, ref) && !held.has(ref));
  return { changes: [...creates, ...deletes], missingSecrets };
}
