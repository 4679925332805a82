import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Database } from '../../db/database.ts';
import type { Persona } from './matrix-fixture.ts';
import type { Row } from './matrix-table.ts';

// The authorization matrix's rows for the Download calls (spread into access/matrix-table.ts). Any signed-in caller
// reaches them; what decides is the object: starting needs a call right on the asset (Readers and above; hidden:
// 404; an administrator without a role: 403), and a job is seen and fetched by its owner only, while they may call
// its collection's data — everyone else gets 404, as for a job that does not exist (downloads/access.test.ts
// covers narrowed tokens, lost roles and expiry). The matrix's job belongs to the reader.

type Expected = Record<Persona, number>;

const ownerOnly: Expected = {
  signedOut: 401,
  plain: 404,
  reader: 200,
  editor: 404,
  owner: 404,
  nestedOwner: 404,
  admin: 404,
  partner: 404,
};

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

export const downloadMatrixRows: Record<string, Row> = {
  'POST /api/Download': {
    payload: (fx) => ({ dataAssetUid: fx.assetUid, format: 'csv' }),
    expected: { ...ownerOnly, reader: 202, editor: 202, owner: 202, nestedOwner: 202, admin: 403 },
    undo: async (body, app) => {
      const { id } = JSON.parse(body) as { id?: string };
      if (id) await app.db.deleteFrom('download_jobs').where('id', '=', id).execute();
    },
  },
  'GET /api/Download': {
    expected: { ...ownerOnly, editor: 200, owner: 200, nestedOwner: 200, admin: 200, plain: 200, partner: 200 },
  },
  'GET /api/Download/:id/Status': { params: (fx) => ({ id: fx.downloadJob }), expected: ownerOnly },
  // The reader's job is Completed: past authorization, it cannot be cancelled any more (409, saying so).
  'POST /api/Download/:id/Cancel': {
    params: (fx) => ({ id: fx.downloadJob }),
    expected: { ...ownerOnly, reader: 409 },
  },
  'GET /api/Download/:id/File': { params: (fx) => ({ id: fx.downloadJob }), expected: ownerOnly },
};
