import type { Insertable, Selectable } from 'kysely';
import type { Database } from '../../db/database.ts';
import { inIdList } from '../../db/id-list.ts';
import type { Collection, DownloadJobState, DownloadJobsTable } from '../../db/schema.ts';

// Queries of download jobs: no rules here (service.ts and worker.ts hold them). Every state change names the
// state it expects, so two processes can never both move one job (the one whose update changed no row lost).

export type JobRow = Selectable<DownloadJobsTable>;
export type NewJob = Insertable<DownloadJobsTable>;

/** Who sees a job: a person, or a collection token (which acts for no person). */
export type JobOwner = { userId: number } | { tokenId: number };

export function insertJob(db: Database, job: NewJob) {
  return db.insertInto('download_jobs').values(job).execute();
}

export function findJob(db: Database, id: string): Promise<JobRow | undefined> {
  return db.selectFrom('download_jobs').selectAll().where('id', '=', id).executeTakeFirst();
}

function ownedBy(owner: JobOwner) {
  return 'userId' in owner
    ? ({ column: 'owner_user_id', value: owner.userId } as const)
    : ({ column: 'owner_token_id', value: owner.tokenId } as const);
}

export function findOwnedJob(db: Database, id: string, owner: JobOwner): Promise<JobRow | undefined> {
  const { column, value } = ownedBy(owner);
  return db.selectFrom('download_jobs').selectAll().where('id', '=', id).where(column, '=', value).executeTakeFirst();
}

/** The active (Queued or Running) job with this dedupe key, if any. */
export function findActiveByKey(db: Database, dedupeKey: string): Promise<JobRow | undefined> {
  return db
    .selectFrom('download_jobs')
    .selectAll()
    .where('dedupe_key', '=', dedupeKey)
    .where('state', 'in', ['Queued', 'Running'])
    .executeTakeFirst();
}

/** The collection of the owner's job `id` (the one its file and status are authorized on); undefined: no such job. */
export function findCollectionOfOwnedJob(db: Database, id: string, owner: JobOwner): Promise<Collection | undefined> {
  const { column, value } = ownedBy(owner);
  return db
    .selectFrom('download_jobs')
    .innerJoin('collections', 'collections.id', 'download_jobs.collection_id')
    .selectAll('collections')
    .where('download_jobs.id', '=', id)
    .where(`download_jobs.${column}`, '=', value)
    .executeTakeFirst();
}

/** A page of the owner's jobs on the given collections, newest first, and how many there are. */
export async function listOwnedJobs(
  db: Database,
  owner: JobOwner,
  collectionIds: readonly number[],
  page: number,
  pageSize: number,
) {
  if (collectionIds.length === 0) return { items: [], totalCount: 0 };
  const { column, value } = ownedBy(owner);
  const inCollections = inIdList(db, 'collection_id', collectionIds);
  const [items, total] = await Promise.all([
    db
      .selectFrom('download_jobs')
      .selectAll()
      .where(column, '=', value)
      .where(inCollections)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(pageSize)
      .offset((page - 1) * pageSize)
      .execute(),
    db
      .selectFrom('download_jobs')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where(column, '=', value)
      .where(inCollections)
      .executeTakeFirstOrThrow(),
  ]);
  return { items, totalCount: Number(total.n) };
}

/** Queued → Running for this process; false when another process took it (or it is no longer Queued). */
export async function claimJob(db: Database, id: string, at: string): Promise<boolean> {
  const result = await db
    .updateTable('download_jobs')
    .set((eb) => ({
      state: 'Running',
      started_at: at,
      heartbeat_at: at,
      attempts: eb('attempts', '+', 1),
      row_count: 0,
    }))
    .where('id', '=', id)
    .where('state', '=', 'Queued')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Rows so far and the heartbeat of the attempt that holds the job (a replaced attempt beats nothing). */
/** Answers whether the attempt still holds the job (false: cancelled, or taken over by another attempt). */
export async function updateProgress(db: Database, id: string, attempt: number, rows: number, at: string) {
  const result = await db
    .updateTable('download_jobs')
    .set({ row_count: rows, heartbeat_at: at })
    .where('id', '=', id)
    .where('state', '=', 'Running')
    .where('attempts', '=', attempt)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Whether this attempt still holds the job: Running, and not taken over by a later attempt. */
export async function holdsJob(db: Database, id: string, attempt: number): Promise<boolean> {
  const row = await db
    .selectFrom('download_jobs')
    .select('id')
    .where('id', '=', id)
    .where('state', '=', 'Running')
    .where('attempts', '=', attempt)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Running → an end state (or back to Queued); false when the job was no longer Running — or, with `attempt`, no
 * longer held by that attempt (another process took it over).
 */
export async function finishJob(
  db: Database,
  id: string,
  change: Partial<Pick<JobRow, 'state' | 'message' | 'finished_at' | 'expires_at'>> & {
    truncated?: number;
    state: DownloadJobState;
    row_count?: number;
    size?: number | null;
  },
  from: DownloadJobState = 'Running',
  attempt?: number,
): Promise<boolean> {
  let update = db.updateTable('download_jobs').set(change).where('id', '=', id).where('state', '=', from);
  if (attempt !== undefined) update = update.where('attempts', '=', attempt);
  const result = await update.executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Queued or Running → Cancelled; false when the job was in neither state. */
export async function cancelActiveJob(db: Database, id: string, at: string, message: string): Promise<boolean> {
  const result = await db
    .updateTable('download_jobs')
    .set({ state: 'Cancelled', finished_at: at, message })
    .where('id', '=', id)
    .where('state', 'in', ['Queued', 'Running'])
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export function queuedJobIds(db: Database): Promise<{ id: string; attempts: number }[]> {
  return db
    .selectFrom('download_jobs')
    .select(['id', 'attempts'])
    .where('state', '=', 'Queued')
    .orderBy('created_at')
    .execute();
}

/** Running jobs whose process stopped beating before `before` (a crash): they are put back or failed. */
export function staleRunningJobs(db: Database, before: string): Promise<Pick<JobRow, 'id' | 'attempts'>[]> {
  return db
    .selectFrom('download_jobs')
    .select(['id', 'attempts'])
    .where('state', '=', 'Running')
    .where('heartbeat_at', '<', before)
    .execute();
}

export function expiredJobs(db: Database, now: string): Promise<Pick<JobRow, 'id' | 'file_name' | 'format'>[]> {
  return db
    .selectFrom('download_jobs')
    .select(['id', 'file_name', 'format'])
    .where('state', '=', 'Completed')
    .where('expires_at', '<=', now)
    .execute();
}

export function activeJobIds(db: Database): Promise<{ id: string }[]> {
  return db.selectFrom('download_jobs').select('id').where('state', 'in', ['Queued', 'Running']).execute();
}

export function deleteJob(db: Database, id: string) {
  return db.deleteFrom('download_jobs').where('id', '=', id).execute();
}

export async function countByState(db: Database): Promise<{ state: DownloadJobState; n: number | string }[]> {
  return db
    .selectFrom('download_jobs')
    .select(['state', (eb) => eb.fn.countAll<number | string>().as('n')])
    .groupBy('state')
    .execute();
}

/** A token's standing now, for the check when its job runs: usable, and (personal) whose it is. */
export function findTokenStanding(db: Database, tokenId: number) {
  return db
    .selectFrom('tokens')
    .leftJoin('users', 'users.id', 'tokens.owner_user_id')
    .select([
      'tokens.id',
      'tokens.kind',
      'tokens.collection_id',
      'tokens.owner_user_id',
      'tokens.revoked_at',
      'tokens.expires_at',
      'users.is_active as owner_active',
    ])
    .where('tokens.id', '=', tokenId)
    .executeTakeFirst();
}

/** A person's standing now, for the check when their job runs. */
export function findUserStanding(db: Database, userId: number) {
  return db
    .selectFrom('users')
    .select(['id', 'name', 'username', 'email', 'can_manage_users', 'is_active'])
    .where('id', '=', userId)
    .executeTakeFirst();
}

/** A personal access token's own roles (narrowed by its owner's at every check, policy.ts). */
export function tokenRoles(db: Database, tokenId: number) {
  return db.selectFrom('token_data_roles').select(['collection_id', 'role']).where('token_id', '=', tokenId).execute();
}

export interface JobFile {
  id: string;
  format: string;
}

/**
 * The download jobs of these data assets (or of a whole collection): their rows are deleted in the caller's
 * transaction, so nobody finds them again; the files go once it is committed (removeJobFiles). A job still
 * running finds it no longer holds its row and discards its part file.
 */
export async function deleteJobsOf(
  db: Database,
  where: { dataSourceIds: readonly number[] } | { collectionId: number },
): Promise<JobFile[]> {
  let select = db.selectFrom('download_jobs').select(['id', 'format']);
  let remove = db.deleteFrom('download_jobs');
  if ('collectionId' in where) {
    select = select.where('collection_id', '=', where.collectionId);
    remove = remove.where('collection_id', '=', where.collectionId);
  } else {
    if (where.dataSourceIds.length === 0) return [];
    select = select.where(inIdList(db, 'data_source_id', where.dataSourceIds));
    remove = remove.where(inIdList(db, 'data_source_id', where.dataSourceIds));
  }
  const jobs = await select.execute();
  await remove.execute();
  return jobs;
}
