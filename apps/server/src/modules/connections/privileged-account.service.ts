import type { ConnectorSettings } from '@datalab/engine';
import { createConnector, isEngineError } from '@datalab/engine';
import type { Database } from '../../db/database.ts';
import type { Connection } from '../../db/schema.ts';
import { AppError, validation } from '../../lib/errors.ts';
import type { Actor } from '../access/change-access.service.ts';
import { hasPermission } from '../access/policy.ts';
import type { ConnectionValues } from './repository.ts';

// The administrator's override for a database account that may do more than read (the engine refuses such an
// account: connectors/account.ts). Only an administrator sets it; every change to it is audited with the value
// before and after; a change of the account (kind, host, port, database, user, password) by anyone else clears it,
// since the administrator allowed that account and no other. A SQL connection's account is checked on save and
// on test, and the engine checks it again before each pool's first run.

export const PRIVILEGED_OVERRIDE_ADMIN_ONLY =
  'Only an administrator can allow a database account that may do more than read';

/** An administrator (never a Data Lab token: tokens hold no permission). */
export const isAdministrator = (actor: Pick<Actor, 'access' | 'user'>) =>
  hasPermission(actor.access, actor.user, 'canManageUsers');

/** Whether the values name another account than the stored row: a new password counts. */
export function accountChanged(existing: Connection, values: ConnectionValues): boolean {
  return (
    existing.driver !== values.driver ||
    existing.host !== values.host ||
    (existing.port ?? null) !== (values.port ?? null) ||
    existing.database_name !== values.database_name ||
    existing.username !== values.username ||
    values.secret !== undefined
  );
}

export interface Override {
  before: boolean;
  after: boolean;
  /** Cleared because someone other than an administrator changed the account. */
  cleared: boolean;
}

/**
 * The override a write leaves: an administrator's as sent (absent keeps the stored one); anyone else may keep or
 * turn off the stored value, never turn it on (403), and loses it with a change of the account.
 */
export async function overrideOf(
  actor: Pick<Actor, 'access' | 'user'>,
  existing: Connection | undefined,
  requested: boolean | undefined,
  values: ConnectionValues,
): Promise<Override> {
  const before = existing?.allow_privileged_account === 1;
  if (values.driver === 'sqlite') return { before, after: false, cleared: false };
  if (await isAdministrator(actor)) return { before, after: requested ?? before, cleared: false };
  if (requested === true && !before) throw adminOnly();
  const changed = existing !== undefined && accountChanged(existing, values);
  const after = requested !== false && before && !changed;
  return { before, after, cleared: before && changed && requested !== false };
}

/** The same rule for a test of settings not saved: never refuses, answers whether the override holds for them. */
export async function overrideForTest(
  actor: Pick<Actor, 'access' | 'user'>,
  existing: Connection | undefined,
  requested: boolean | undefined,
  values: ConnectionValues,
): Promise<boolean> {
  try {
    return (await overrideOf(actor, existing, requested, values)).after;
  } catch {
    return false;
  }
}

function adminOnly(): AppError {
  return new AppError({
    status: 403,
    code: 'forbidden',
    title: PRIVILEGED_OVERRIDE_ADMIN_ONLY,
    errors: { allowPrivilegedAccount: [PRIVILEGED_OVERRIDE_ADMIN_ONLY] },
  });
}

/** One audit record when the override changed (set, turned off, or cleared by a change of the account). */
export async function auditOverride(
  actor: Pick<Actor, 'audit'>,
  trx: Database,
  connection: { id: number; name: string },
  override: Override,
): Promise<void> {
  if (override.before === override.after) return;
  await actor.audit(
    {
      action: 'connection.allowPrivilegedAccount',
      target: { type: 'connection', id: connection.id, name: connection.name },
      before: { allowPrivilegedAccount: override.before },
      after: {
        allowPrivilegedAccount: override.after,
        ...(override.cleared ? { reason: 'The account changed by someone who is not an administrator' } : {}),
      },
    },
    trx,
  );
}

/** A refusal of the account as a reply on the form's user field (what was found and what to do). */
export function accountRefusal(error: unknown): unknown {
  return isEngineError(error) && error.code === 'PRIVILEGED_ACCOUNT'
    ? validation({ username: [error.message] })
    : error;
}

/** The longest a save waits to reach the database for the account check (an unreachable one is checked later). */
const SAVE_CHECK_CONNECT_MS = 3000;

/**
 * Refuses to save a connection whose account may do more than read (unless allowed). A database that cannot be
 * reached now does not stop the save: the engine checks the account again before the pool's first run.
 */
export async function assertReadOnlyAccount(config: ConnectorSettings): Promise<void> {
  if (config.kind === 'sqlite' || config.settings.allowPrivilegedAccount === true) return;
  const connectTimeoutMs = Math.min(config.settings.connectTimeoutMs ?? SAVE_CHECK_CONNECT_MS, SAVE_CHECK_CONNECT_MS);
  const connector = createConnector(config.kind, { ...config.settings, connectTimeoutMs, maxConnections: 1 });
  try {
    await connector.testConnection();
  } catch (error) {
    if (isEngineError(error) && error.code === 'PRIVILEGED_ACCOUNT') throw accountRefusal(error);
  } finally {
    await connector.close().catch(() => undefined);
  }
}
