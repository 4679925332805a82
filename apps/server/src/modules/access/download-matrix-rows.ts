import type { Persona } from './matrix-fixture.ts';
import type { Row } from './matrix-row.ts';

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
