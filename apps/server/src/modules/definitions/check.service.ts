import type { DefinitionDocument } from '@datalab/contract/api/definition-document';
import { messages } from '@datalab/contract/messages';
import { detectParameters, detectTemplateParameters, httpRequestSchema, isEngineError } from '@datalab/engine';
import { parameterDefinitionsSchema } from '@datalab/engine';
import type { ErrorsMap } from '@datalab/contract/errors';
import { createWebApiCredential } from '@datalab/contract/api/web-api';
import { validation } from '../../lib/errors.ts';
import { errorsFromIssues } from '../../lib/validation-messages.ts';
import type { Actor } from '../access/change-access.service.ts';
import { checkSettings } from '../connections/service.ts';
import { connectorSettings, type SqlRuntime } from '../connections/runtime.service.ts';
import { assertReadOnlyAccount } from '../connections/privileged-account.service.ts';
import type { Connection } from '../../db/schema.ts';
import type { DefinitionChange } from '@datalab/contract/api/definitions';
import {
  placeholderUndefined,
  templatePlaceholderUndefined,
  checkTransformations,
} from '../data-sources/asset-writes.service.ts';
import { checkCredential } from '../web-api/credentials.service.ts';
import { checkConnectionSettings } from '../web-api/service.ts';
import { under } from './document.ts';
import { heldSecrets, lower, secretValue, type PlanInput } from './plan.service.ts';
import { findGroupsByName, findUsersByUsername, type CollectionState } from './repository.ts';

// The rules a document must keep, the same as the calls that save each thing one by one (their own checks are
// called here, their errors moved under the thing's path: `dataAssets.3.parameters.0.allowedValues.dataAsset`):
// names unique regardless of case, every connection, credential, parameter data source, group and user a document
// names must exist (in the document, or in the collection when it stays), parameters valid with their depends-on
// free of cycles, patterns RE2, every placeholder defined, rules and requests the engine's own. Checked whole
// before anything is written.

const duplicateMessage = (entity: string, name: string) => messages.alreadyExistsNamed(entity, name);

function uniqueNames(
  errors: ErrorsMap,
  list: readonly { name: string }[],
  path: string,
  entity: string,
  seen = new Set<string>(),
) {
  list.forEach((item, index) => {
    const key = lower(item.name);
    if (seen.has(key)) (errors[`${path}.${index}.name`] ??= []).push(duplicateMessage(entity, item.name));
    seen.add(key);
  });
  return seen;
}

/** Asset name → its parameters' data sources must name another asset that will exist; the store keeps uids. */
export function parameterSourceErrors(document: DefinitionDocument, state: CollectionState): ErrorsMap {
  const errors: ErrorsMap = {};
  const names = new Set(document.dataAssets.map((a) => lower(a.name)));
  if (!document.prune) for (const a of state.assets) names.add(lower(a.name));
  document.dataAssets.forEach((asset, index) => {
    asset.parameters.forEach((p, pIndex) => {
      if (p.allowedValues?.kind !== 'dataSource') return;
      const key = `dataAssets.${index}.parameters.${pIndex}.allowedValues.dataAsset`;
      const target = lower(p.allowedValues.dataAsset);
      if (!names.has(target)) (errors[key] ??= []).push(messages.doesNotExist('Data asset', p.allowedValues.dataAsset));
      else if (target === lower(asset.name)) (errors[key] ??= []).push(messages.invalidOption);
    });
  });
  return errors;
}

function assetErrors(document: DefinitionDocument, state: CollectionState): ErrorsMap {
  const errors: ErrorsMap = parameterSourceErrors(document, state);
  const sqlConnections = new Map(document.sqlConnections.map((c) => [lower(c.name), c.driver as string]));
  const webConnections = new Map(document.webApiConnections.map((c) => [lower(c.name), c]));
  if (!document.prune)
    for (const c of state.connections) {
      if (c.kind === 'sql' && !sqlConnections.has(lower(c.name)))
        sqlConnections.set(lower(c.name), c.driver ?? 'postgres');
      if (c.kind === 'webapi' && !webConnections.has(lower(c.name))) {
        const credentials = state.credentials.filter((k) => k.connection_id === c.id).map((k) => ({ name: k.name }));
        webConnections.set(lower(c.name), { credentials } as never);
      }
    }
  document.dataAssets.forEach((asset, index) => {
    const at = (field: string) => `dataAssets.${index}.${field}`;
    const add = (field: string, message: string) => (errors[at(field)] ??= []).push(message);
    const parsed = parameterDefinitionsSchema.safeParse(
      asset.parameters.map((p) =>
        p.allowedValues?.kind === 'dataSource'
          ? { ...p, allowedValues: { ...p.allowedValues, dataAsset: undefined, dataSourceId: 'x' } }
          : p,
      ),
    );
    if (!parsed.success) Object.assign(errors, errorsFromIssues(parsed.error.issues, at('parameters')));
    const defined = new Set(asset.parameters.map((p) => p.name));
    if (asset.kind === 'sql') {
      const driver = sqlConnections.get(lower(asset.connection));
      if (driver === undefined) return add('connection', messages.doesNotExist('SQL connection', asset.connection));
      try {
        const used = detectParameters(asset.sql, driver as 'postgres');
        for (const name of used.filter((n) => !defined.has(n))) add('sql', placeholderUndefined(name));
      } catch (error) {
        if (!isEngineError(error)) throw error;
        add('sql', error.message);
      }
    } else {
      const connection = webConnections.get(lower(asset.connection));
      if (!connection) return add('connection', messages.doesNotExist('Web API connection', asset.connection));
      if (asset.credential && !connection.credentials.some((k) => lower(k.name) === lower(asset.credential ?? '')))
        add('credential', messages.doesNotExist('Credential', asset.credential));
      const request = httpRequestSchema.safeParse(asset.request);
      if (!request.success) Object.assign(errors, errorsFromIssues(request.error.issues, at('request')));
      else
        for (const name of detectTemplateParameters(request.data).filter((n) => !defined.has(n)))
          add('request', templatePlaceholderUndefined(name));
    }
  });
  return errors;
}

/** A credential a document leaves out of its connection must not be sent by an asset that stays. */
function credentialsInUse(document: DefinitionDocument, state: CollectionState): ErrorsMap {
  const errors: ErrorsMap = {};
  const inDocument = new Map(document.dataAssets.map((a) => [lower(a.name), a]));
  document.webApiConnections.forEach((c, index) => {
    const row = state.connections.find((r) => r.kind === 'webapi' && lower(r.name) === lower(c.name));
    if (!row) return;
    for (const credential of state.credentials.filter((k) => k.connection_id === row.id)) {
      if (c.credentials.some((k) => lower(k.name) === lower(credential.name))) continue;
      const users = state.assets.filter((a) => {
        if (a.credential_id !== credential.id) return false;
        const kept = inDocument.get(lower(a.name));
        return kept
          ? kept.kind === 'webapi' && lower(kept.credential ?? '') === lower(credential.name)
          : !document.prune;
      });
      if (users.length > 0)
        (errors[`webApiConnections.${index}.credentials`] ??= []).push(
          `Credential ${credential.name} is sent by ${users.map((a) => a.name).join(', ')}; keep it or change those first`,
        );
    }
  });
  return errors;
}

/** Checks the whole document; a 400 with every problem found by path. Network checks (SQL hosts) come last. */
export async function checkDocument(
  actor: Pick<Actor, 'db'>,
  runtime: SqlRuntime,
  document: DefinitionDocument,
  state: CollectionState,
): Promise<void> {
  const errors: ErrorsMap = {};
  const connectionNames = uniqueNames(errors, document.sqlConnections, 'sqlConnections', 'Connection');
  uniqueNames(errors, document.webApiConnections, 'webApiConnections', 'Connection', connectionNames);
  uniqueNames(errors, document.dataAssets, 'dataAssets', 'Data asset');
  document.webApiConnections.forEach((c, index) =>
    uniqueNames(errors, c.credentials, `webApiConnections.${index}.credentials`, 'Credential'),
  );
  const groups = uniqueNames(
    errors,
    document.dataRoles.groups.map((g) => ({ name: g.group })),
    'dataRoles.groups',
    'Role of group',
  );
  uniqueNames(
    errors,
    document.dataRoles.users.map((u) => ({ name: u.username })),
    'dataRoles.users',
    'Role of user',
  );
  // A connection of one kind the collection holds cannot be declared as the other kind (one name, one connection).
  for (const [list, kind, path] of [
    [document.sqlConnections, 'webapi', 'sqlConnections'],
    [document.webApiConnections, 'sql', 'webApiConnections'],
  ] as const)
    list.forEach((c, index) => {
      if (state.connections.some((row) => row.kind === kind && lower(row.name) === lower(c.name)))
        (errors[`${path}.${index}.name`] ??= []).push(duplicateMessage('Connection', c.name));
    });
  Object.assign(errors, assetErrors(document, state));
  Object.assign(errors, credentialsInUse(document, state));
  document.dataAssets.forEach((asset, index) => {
    try {
      checkTransformations(asset.transformations, `dataAssets.${index}.transformations`);
    } catch (error) {
      Object.assign(errors, (error as { errors?: ErrorsMap }).errors ?? {});
    }
  });
  const [groupRows, userRows] = await Promise.all([
    findGroupsByName(actor.db, [...groups]),
    findUsersByUsername(
      actor.db,
      document.dataRoles.users.map((u) => u.username),
    ),
  ]);
  document.dataRoles.groups.forEach((g, index) => {
    if (!groupRows.some((row) => row.name_key === lower(g.group)))
      (errors[`dataRoles.groups.${index}.group`] ??= []).push(messages.doesNotExist('User group', g.group));
  });
  document.dataRoles.users.forEach((u, index) => {
    if (!userRows.some((row) => row.username === u.username))
      (errors[`dataRoles.users.${index}.username`] ??= []).push(messages.doesNotExist('User', u.username));
  });
  for (const [index, c] of document.webApiConnections.entries()) {
    await under(`webApiConnections.${index}`, () => checkConnectionSettings(c, c.allowedHosts)).catch(
      (error: unknown) => Object.assign(errors, (error as { errors?: ErrorsMap }).errors ?? {}),
    );
    for (const [kIndex, k] of c.credentials.entries()) {
      await under(`webApiConnections.${index}.credentials.${kIndex}`, () => {
        const input = createWebApiCredential.safeParse({ ...k, connectionId: 0, secret: undefined });
        if (!input.success) throw validation(errorsFromIssues(input.error.issues));
        // The secret's own rules are checked on apply, once its value is known.
        checkCredential(input.data, 'x');
      }).catch((error: unknown) => Object.assign(errors, (error as { errors?: ErrorsMap }).errors ?? {}));
    }
  }
  if (Object.keys(errors).length > 0) throw validation(errors);
  for (const [index, c] of document.sqlConnections.entries()) {
    await under(`sqlConnections.${index}`, () =>
      checkSettings(
        { ...c, kind: c.driver, password: undefined, allowPrivilegedAccount: undefined },
        runtime,
        state.collection,
      ),
    );
  }
}

/**
 * As a save does: a network SQL connection the apply creates or changes must not log in with an account that may do
 * more than read (unless an administrator allowed that account); a database out of reach now is checked again by the
 * engine before its first run.
 */
export async function checkAccounts(runtime: SqlRuntime, input: PlanInput, changes: readonly DefinitionChange[]) {
  const held = heldSecrets(input.state);
  for (const [index, c] of input.document.sqlConnections.entries()) {
    if (c.driver === 'sqlite') continue;
    const changed = changes.some(
      (change) => change.kind === 'sqlConnection' && change.action !== 'delete' && lower(change.name) === lower(c.name),
    );
    if (!changed) continue;
    const existing = input.state.connections.find((r) => r.kind === 'sql' && lower(r.name) === lower(c.name));
    const password = c.password ? secretValue(input, held, c.password.secret) : undefined;
    const row = {
      ...existing,
      driver: c.driver,
      host: c.host ?? null,
      port: c.port ?? null,
      database_name: c.database,
      username: c.username ?? null,
      secret: password ? runtime.box.seal(password) : null,
      options: JSON.stringify({ ssl: c.ssl }),
      pool_max: c.poolMax,
      acquire_timeout_ms: c.acquireTimeoutMs,
      allow_privileged_account: existing?.allow_privileged_account ?? 0,
    } as Connection;
    await under(`sqlConnections.${index}`, () =>
      assertReadOnlyAccount(connectorSettings(row, runtime, input.state.collection.uid)),
    );
  }
}
