import { assetIdOfKey, type ResultCache } from '../../lib/result-cache.ts';
import { removeJobFiles, type JobFile } from '../downloads/deletion.service.ts';

export { deleteJobsOf } from '../downloads/deletion.service.ts';

// What goes with a deleted data asset (or a deleted collection's assets) besides its rows: its download jobs and
// their files, and its cached results. The jobs' rows are deleted in the deleting transaction; the files and the
// cache entries once it is committed.

/** Where the deletion's leftovers live: the download folder and the result cache. */
export interface DeletionStores {
  downloadDir: string;
  cache: ResultCache;
}

export async function cachedKeysOf(cache: ResultCache, dataSourceIds: readonly number[]): Promise<string[]> {
  if (dataSourceIds.length === 0) return [];
  const ids = new Set(dataSourceIds);
  const now = Date.now();
  return (await cache.keys())
    .filter((info) => info.createdAt.getTime() + info.ttlMs > now)
    .filter((info) => ids.has(assetIdOfKey(info.key) ?? -1))
    .map((info) => info.key);
}

export interface Leftovers {
  jobs: JobFile[];
  dataSourceIds: number[];
}

/** After a committed deletion: the jobs' files and the assets' cached results. Answers what went. */
export async function removeLeftovers(
  stores: DeletionStores,
  leftovers: Leftovers,
): Promise<{ files: number; cachedResults: number }> {
  const { downloadDir, cache } = stores;
  await removeJobFiles(downloadDir, leftovers.jobs);
  const keys = await cachedKeysOf(cache, leftovers.dataSourceIds);
  let cachedResults = 0;
  for (const key of keys) if (await cache.remove(key)) cachedResults += 1;
  return { files: leftovers.jobs.length, cachedResults };
}

/** The stores of a running app (the download folder as configured, the result cache). */
export function deletionStores(app: {
  config: { downloads: { dir: string } };
  resultCache: ResultCache;
}): DeletionStores {
  return { downloadDir: app.config.downloads.dir, cache: app.resultCache };
}
