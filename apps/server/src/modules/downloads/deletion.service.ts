import { rm } from 'node:fs/promises';
import type { Database } from '../../db/database.ts';
import { inIdList } from '../../db/id-list.ts';
import { filePath } from './files.ts';

// Download jobs deleted with their data asset or collection: the rows in the deleting transaction, the files
// once it is committed.

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

/** The jobs' files (absent ones are fine: a job may have none yet, or have been swept). */
export async function removeJobFiles(dir: string, jobs: readonly JobFile[]): Promise<void> {
  await Promise.all(jobs.map((job) => rm(filePath(dir, job.id, job.format), { force: true })));
}
