import { createHash, randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { stableValuesKey } from '@datalab/engine';
import type { DownloadFormat } from '@datalab/contract/api/downloads';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/database.ts';
import { isUniqueViolation } from '../../db/unique-violation.ts';
import { mapEngineErrors } from '../../lib/engine-errors.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import type { AuthUser } from '../../lib/auth-user.ts';
import type { UsageRecorder } from '../../lib/usage-record.ts';
import type { AccessModelCache } from '../access/access-model.ts';
import { collectionsAllowing } from '../access/policy.ts';
import { callableAsset, checkOptions, checkValues, slug, type CallingDeps } from '../calling/service.ts';
import { ownerOf } from './caller.ts';
import { stateAt } from './presenter.ts';
import { QUEUE_UNAVAILABLE, QueueUnavailable, type JobQueue } from './queue.ts';
import { filePath } from './files.ts';
import {
  cancelActiveJob,
  deleteJob,
  findActiveByKey,
  findOwnedJob,
  insertJob,
  listOwnedJobs,
  type JobOwner,
  type JobRow,
} from './repository.ts';

// Starting a download and reading one's own jobs. A job is created only for a call the caller could make right now
// through the calling layer's own path (callableAsset, checkValues, the parameter data sources' options): a 400 or
// 404 comes before any row exists. Identical requests of one owner while a job is active answer that job.

export interface DownloadsDeps {
  calling: CallingDeps;
  db: Database;
  queue: JobQueue;
  usage: UsageRecorder;
  log: FastifyBaseLogger;
  /** DOWNLOAD_DIR: where files are written (a shared volume when workers run elsewhere). */
  dir: string;
  /** DOWNLOAD_MAX_BYTES (0: no limit). */
  maxBytes: number;
  /** DOWNLOAD_RETENTION_HOURS in ms. */
  retentionMs: number;
}

const jobNotFound = (id: string) => notFound('Download', id);

const queueUnavailable = () =>
  new AppError({ status: 503, code: 'unavailable', title: QUEUE_UNAVAILABLE, headers: { 'retry-after': '5' } });

const ACTIVE_KEY = { postgres: 'download_jobs_active_dedupe', sqlite: 'download_jobs.dedupe_key' };

function ownerKey(owner: JobOwner): string {
  return 'userId' in owner ? `u${owner.userId}` : `t${owner.tokenId}`;
}

/** The file name a job's file is offered under: the asset's name and the day, letters and digits only. */
export function jobFileName(assetName: string, format: DownloadFormat, at: Date): string {
  return `${slug(assetName, false) || 'data'}-${at.toISOString().slice(0, 10)}.${format}`;
}

export interface StartRequest {
  dataAssetUid: string;
  parameters: Record<string, unknown>;
  format: DownloadFormat;
}

export async function startDownload(
  deps: DownloadsDeps,
  user: AuthUser,
  body: StartRequest,
  requestId: string,
): Promise<JobRow> {
  const definition = await callableAsset(deps.calling, user, body.dataAssetUid, {});
  const values = checkValues(definition, body.parameters);
  await mapEngineErrors(() => checkOptions(deps.calling, definition, values));
  const owner = ownerOf(user);
  const normalised = stableValuesKey(values);
  const dedupeKey = createHash('sha256')
    .update([ownerKey(owner), definition.uid, definition.version, body.format, normalised].join('\u0000'))
    .digest('base64url');
  const active = await findActiveByKey(deps.db, dedupeKey);
  if (active) return active;
  const now = new Date();
  const job = {
    id: randomBytes(18).toString('base64url'),
    owner_user_id: 'userId' in owner ? owner.userId : null,
    owner_token_id: 'tokenId' in owner ? owner.tokenId : null,
    token_id: user.token?.id ?? null,
    data_source_id: definition.id,
    data_source_uid: definition.uid,
    data_source_version: definition.version,
    collection_id: definition.collection.id,
    asset_name: definition.name,
    format: body.format,
    parameters: JSON.stringify(values),
    dedupe_key: dedupeKey,
    state: 'Queued' as const,
    truncated: 0,
    file_name: jobFileName(definition.name, body.format, now),
    request_id: requestId,
    created_at: now.toISOString(),
  };
  try {
    await insertJob(deps.db, job);
  } catch (error) {
    // The same request at the same instant: the other one's job is the answer.
    if (!isUniqueViolation(error, ACTIVE_KEY)) throw error;
    const winner = await findActiveByKey(deps.db, dedupeKey);
    if (winner) return winner;
    throw error;
  }
  try {
    await deps.queue.add(job.id, 0);
  } catch (error) {
    // No queue, no job: the row goes, so nothing waits forever and a retry starts afresh.
    await deleteJob(deps.db, job.id);
    if (error instanceof QueueUnavailable) {
      deps.log.warn({ err: error.cause ?? error }, 'download queue unreachable');
      throw queueUnavailable();
    }
    throw error;
  }
  const row = await findOwnedJob(deps.db, job.id, owner);
  if (!row) throw jobNotFound(job.id);
  return row;
}

/**
 * One's own job; another owner's id answers exactly as an unknown one. The routes have already authorized the caller
 * on the job's collection (route-access.ts, `download`), as a call of its data would be, on this very request.
 */
export async function ownJob(db: Database, user: AuthUser, id: string): Promise<JobRow> {
  const row = await findOwnedJob(db, id, ownerOf(user));
  if (!row) throw jobNotFound(id);
  return row;
}

/**
 * A Completed job's file; any other state has none to offer (404, as for a job that does not exist), nor has a job
 * past its expiry, even before the sweeper has removed the file.
 */
export async function completedJob(db: Database, user: AuthUser, id: string, now: number): Promise<JobRow> {
  const row = await ownJob(db, user, id);
  if (stateAt(row, now) !== 'Completed') throw jobNotFound(id);
  return row;
}

export const NOT_CANCELLABLE = (state: string) =>
  `This download is ${state}: only a queued or running download can be cancelled`;
export const CANCELLED = 'Cancelled by its owner';

/**
 * Cancels one's own Queued or Running job: it becomes Cancelled at once (a worker about to claim it finds it no
 * longer Queued; one running it finds, at its next heartbeat, that it no longer holds it, stops the run — and with
 * it the database query — and discards its part file). Any other state answers 409 naming it.
 */
export async function cancelJob(deps: Pick<DownloadsDeps, 'db' | 'dir'>, user: AuthUser, id: string): Promise<JobRow> {
  const row = await ownJob(deps.db, user, id);
  const cancelled = await cancelActiveJob(deps.db, row.id, new Date().toISOString(), CANCELLED);
  const now = await ownJob(deps.db, user, id);
  // Cancelling twice answers the same; any other state is refused, saying which it is.
  if (!cancelled && now.state !== 'Cancelled') {
    throw new AppError({ status: 409, code: 'conflict', title: NOT_CANCELLABLE(stateAt(now, Date.now())) });
  }
  // A run that renamed its file just before the cancel finds it cannot complete the job and removes it too.
  if (cancelled) await rm(filePath(deps.dir, row.id, row.format), { force: true });
  return now;
}

/** One's own jobs whose collection one may still call (narrowed by one's token), as each would be authorized. */
export async function myJobs(db: Database, access: AccessModelCache, user: AuthUser, page: number, pageSize: number) {
  const collectionIds = await collectionsAllowing(access, user, 'call');
  return listOwnedJobs(db, ownerOf(user), collectionIds, page, pageSize);
}

/** Read straight from the store: routes and plugins reach the repository through this service. */
export { countByState } from './repository.ts';
