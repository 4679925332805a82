import { rm } from 'node:fs/promises';
import { filePath } from './files.ts';
import type { JobFile } from './repository.ts';

// Download jobs deleted with their data asset or collection: the rows in the deleting transaction, the files
// once it is committed.

export { deleteJobsOf, type JobFile } from './repository.ts';

/** The jobs' files (absent ones are fine: a job may have none yet, or have been swept). */
export async function removeJobFiles(dir: string, jobs: readonly JobFile[]): Promise<void> {
  await Promise.all(jobs.map((job) => rm(filePath(dir, job.id, job.format), { force: true })));
}
