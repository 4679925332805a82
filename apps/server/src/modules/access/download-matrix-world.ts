import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Database } from '../../db/database.ts';

// The authorization matrix's Download objects (download-matrix-rows.ts has their rows).

/** A Completed job of the reader, with its file. */
export async function buildDownloadWorld(
  db: Database,
  dir: string,
  readerId: number,
  asset: { id: number; uid: string; collectionId: number },
): Promise<{ jobId: string }> {
  const jobId = `matrix-job-${Date.now().toString(36)}`;
  const at = new Date().toISOString();
  await db
    .insertInto('download_jobs')
    .values({
      id: jobId,
      owner_user_id: readerId,
      owner_token_id: null,
      token_id: null,
      data_source_id: asset.id,
      data_source_uid: asset.uid,
      data_source_version: 1,
      collection_id: asset.collectionId,
      asset_name: 'Orders',
      format: 'csv',
      parameters: '{}',
      dedupe_key: jobId,
      state: 'Completed',
      row_count: 1,
      size: 4,
      truncated: 0,
      file_name: 'orders.csv',
      created_at: at,
      finished_at: at,
      expires_at: new Date(Date.now() + 3_600_000).toISOString(),
    })
    .execute();
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${jobId}.csv`), 'n\r\n1\r\n');
  return { jobId };
}
