import { credentialSchema } from '@datalab/engine';
import type { createWebApiCredential, updateWebApiCredential } from '@datalab/contract/api/web-api';
import type { ErrorsMap } from '@datalab/contract/errors';
import { messages } from '@datalab/contract/messages';
import { texts } from '@datalab/contract/texts';
import type { z } from 'zod';
import type { Database } from '../../db/database.ts';
import type { Collection, CredentialKind } from '../../db/schema.ts';
import { AppError, invalid, notFound, validation } from '../../lib/errors.ts';
import { usedByText } from '../dependents/assets-using.service.ts';
import { presentCredential } from './presenter.ts';
import {
  deleteCredentialRow,
  findCredential,
  findWebApiConnection,
  insertCredential,
  touchConnection,
  updateCredentialRow,
} from './repository.ts';
import { CONNECTION_ENTITY, CREDENTIAL_ENTITY, namedWrite, type WebApiServices } from './service.ts';

// Credentials of Web API connections (Owners): sealed before they reach the store, replaced only when a new secret is
// sent, never returned, logged or audited (records say `secretChanged`).

/** For writes in another module's transaction (a definition's apply). */
export { deleteCredentialRow, deleteWebApiConnectionRow, insertCredential, updateCredentialRow } from './repository.ts';

type CreateCredential = z.output<typeof createWebApiCredential>;
type UpdateCredential = z.output<typeof updateWebApiCredential>;

const keepsSecret = (secret: string | undefined) => secret === undefined || secret === texts.maskedSecret;

/** The non-secret settings as stored (JSON), for a credential input. */
function settingsOf(input: CreateCredential | UpdateCredential): Record<string, unknown> {
  return input.settings as Record<string, unknown>;
}

/** The credential as the engine would run it, with this secret (its own schema checks it). */
function engineCredential(input: CreateCredential | UpdateCredential, secret: string): unknown {
  const id = 'check';
  switch (input.kind) {
    case 'api-key':
      return { id, kind: 'apiKey', in: input.settings.in, name: input.settings.name, value: secret };
    case 'basic':
      return { id, kind: 'basic', username: input.settings.username, password: secret };
    case 'bearer':
      return { id, kind: 'bearer', token: secret };
    case 'oauth2':
      return { id, kind: 'oauth2', ...input.settings, clientSecret: secret };
  }
}

const SECRET_FIELDS = new Set(['value', 'password', 'token', 'clientSecret']);
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** The engine's check of the credential (token URL, lengths...) and of an API key's header name. */
export function checkCredential(input: CreateCredential | UpdateCredential, secret: string): void {
  const errors: ErrorsMap = {};
  const parsed = credentialSchema.safeParse(engineCredential(input, secret));
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = String(issue.path[0] ?? 'settings');
      (errors[SECRET_FIELDS.has(field) ? 'secret' : `settings.${field}`] ??= []).push(issue.message);
    }
  }
  if (input.kind === 'api-key' && input.settings.in === 'header' && !HEADER_NAME.test(input.settings.name)) {
    (errors['settings.name'] ??= []).push('Invalid header name');
  }
  if (Object.keys(errors).length > 0) throw validation(errors);
}

const credentialAudit = (input: { name: string; kind: CredentialKind }, secretChanged: boolean) => ({
  name: input.name,
  kind: input.kind,
  secretChanged,
});

async function connectionOfCollection(db: Database, collection: Collection, connectionId: number) {
  const connection = await findWebApiConnection(db, connectionId);
  if (!connection || connection.collection_id !== collection.id) {
    throw invalid('connectionId', messages.doesNotExist(CONNECTION_ENTITY, connectionId));
  }
  return connection;
}

export async function createCredential(s: WebApiServices, collection: Collection, input: CreateCredential) {
  const connection = await connectionOfCollection(s.actor.db, collection, input.connectionId);
  const secret = keepsSecret(input.secret) ? undefined : input.secret;
  if (secret === undefined && input.kind !== 'basic') throw invalid('secret', messages.required('Secret'));
  checkCredential(input, secret ?? '');
  const now = new Date().toISOString();
  const id = await namedWrite(CREDENTIAL_ENTITY, input.name, 'web_api_credentials', () =>
    s.actor.db.transaction().execute(async (trx) => {
      const created = await insertCredential(trx, {
        connection_id: connection.id,
        name: input.name,
        name_key: input.name.toLowerCase(),
        kind: input.kind,
        settings: JSON.stringify(settingsOf(input)),
        secret: secret ? s.runtime.box.seal(secret) : null,
        created_at: now,
        updated_at: now,
      });
      await touchConnection(trx, connection.id, now);
      await s.actor.audit(
        {
          action: 'connection.credential.create',
          target: { type: 'connection', id: connection.id, name: connection.name },
          after: { id: created, ...credentialAudit(input, secret !== undefined) },
        },
        trx,
      );
      return created;
    }),
  );
  const row = await findCredential(s.actor.db, id);
  if (!row) throw notFound(CREDENTIAL_ENTITY, id);
  return presentCredential(row);
}

export async function updateCredential(s: WebApiServices, input: UpdateCredential) {
  const existing = await findCredential(s.actor.db, input.id);
  if (!existing) throw notFound(CREDENTIAL_ENTITY, input.id);
  const newSecret = keepsSecret(input.secret) ? undefined : input.secret;
  // A new kind puts the secret somewhere else: it must be given again (a basic password may stay empty).
  if (newSecret === undefined && existing.kind !== input.kind && input.kind !== 'basic') {
    throw invalid('secret', messages.required('Secret'));
  }
  const kept = existing.kind === input.kind && existing.secret ? s.runtime.box.open(existing.secret) : '';
  checkCredential(input, newSecret ?? kept);
  const now = new Date().toISOString();
  await namedWrite(CREDENTIAL_ENTITY, input.name, 'web_api_credentials', () =>
    s.actor.db.transaction().execute(async (trx) => {
      await updateCredentialRow(trx, existing.id, {
        name: input.name,
        name_key: input.name.toLowerCase(),
        kind: input.kind,
        settings: JSON.stringify(settingsOf(input)),
        ...(newSecret !== undefined
          ? { secret: newSecret ? s.runtime.box.seal(newSecret) : null }
          : existing.kind !== input.kind
            ? { secret: null }
            : {}),
        updated_at: now,
      });
      await touchConnection(trx, existing.connection_id, now);
      await s.actor.audit(
        {
          action: 'connection.credential.update',
          target: { type: 'connection', id: existing.connection_id },
          before: { id: existing.id, name: existing.name, kind: existing.kind },
          after: { id: existing.id, ...credentialAudit(input, newSecret !== undefined) },
        },
        trx,
      );
    }),
  );
  await s.connectors.evict(String(existing.connection_id));
  const row = await findCredential(s.actor.db, existing.id);
  if (!row) throw notFound(CREDENTIAL_ENTITY, existing.id);
  return presentCredential(row);
}

/** Deletes a credential no data asset sends (409 otherwise); with `connectionId`, it must be that connection's. */
export async function deleteCredential(s: WebApiServices, id: number, connectionId?: number) {
  const existing = await findCredential(s.actor.db, id);
  if (!existing || (connectionId !== undefined && existing.connection_id !== connectionId)) {
    throw notFound(CREDENTIAL_ENTITY, id);
  }
  if (existing.asset_count > 0) {
    const title = await usedByText(
      s.actor.db,
      `${CREDENTIAL_ENTITY} ${existing.name}`,
      'credential_id',
      id,
      'sent',
      'pick another credential for them first',
    );
    throw new AppError({ status: 409, code: 'conflict', title });
  }
  await s.actor.db.transaction().execute(async (trx) => {
    const now = new Date().toISOString();
    await deleteCredentialRow(trx, id);
    await touchConnection(trx, existing.connection_id, now);
    await s.actor.audit(
      {
        action: 'connection.credential.delete',
        target: { type: 'connection', id: existing.connection_id },
        before: { id, name: existing.name, kind: existing.kind },
      },
      trx,
    );
  });
  await s.connectors.evict(String(existing.connection_id));
  return { id, deleted: true as const };
}
