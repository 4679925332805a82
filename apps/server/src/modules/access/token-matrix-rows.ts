import type { Persona } from './matrix-fixture.ts';
import type { Row } from './matrix-row.ts';

// The authorization matrix's rows for the Token calls (spread into access/matrix-table.ts). A token is seen and
// revoked by who may manage it — a personal access token's owner, a collection token's Owners — and by
// administrators; anyone else gets 404, as if it did not exist. A collection token is made by an Owner only
// (administrators hold no data role to hand out); a personal access token's roles are changed by its owner only.

type Expected = Record<Persona, number>;

/** Every caller, signed in or not (a public route). */
const anyone = (status: number): Expected => ({
  signedOut: status,
  plain: status,
  reader: status,
  editor: status,
  owner: status,
  nestedOwner: status,
  admin: status,
  partner: status,
});
const everyone: Expected = { ...anyone(200), signedOut: 401 };
/** The target collection's Owners (directly or through nested groups) and administrators; others never see it. */
const managers = (ok: number): Expected => ({
  signedOut: 401,
  plain: 404,
  reader: 404,
  editor: 404,
  owner: ok,
  nestedOwner: ok,
  admin: ok,
  partner: 404,
});

export const tokenMatrixRows: Record<string, Row> = {
  'GET /api/Token/GetByCollection': {
    query: (fx) => ({ collectionUid: fx.collection }),
    expected: { ...managers(200), reader: 403, editor: 403 },
  },
  'GET /api/Token/GetAll': { expected: everyone },
  'GET /api/Token/GetAllPersonalAccessTokens': { expected: everyone },
  'GET /api/Token': { query: (fx) => ({ id: fx.tokens.collectionTokenId }), expected: managers(200) },
  'POST /api/Token': {
    payload: (fx, h) => ({ kind: 'collection', name: `Feed ${h.unique()}`, collectionUid: fx.collection }),
    expected: { ...managers(201), reader: 403, editor: 403, admin: 403 },
    undo: async (body, app) => {
      const { id } = JSON.parse(body) as { id?: number };
      if (id !== undefined) await app.db.deleteFrom('tokens').where('id', '=', id).execute();
    },
  },
  'GET /api/Token/:id/UserDataRoles': {
    params: (fx) => ({ id: fx.tokens.collectionTokenId }),
    expected: managers(200),
  },
  // The owner's own personal access token: an administrator sees it but may not change its roles.
  'PUT /api/Token/:id/UserDataRoles': {
    params: (fx) => ({ id: fx.tokens.personalTokenId }),
    payload: (fx) => ({ roles: [{ collectionUid: fx.collection, role: 'Reader' }] }),
    expected: { ...managers(404), owner: 200, admin: 403 },
  },
  'PUT /api/Token/:id/Revoke': {
    params: async (_fx, h) => ({ id: await h.tokens.freshCollectionToken() }),
    expected: managers(200),
  },
  // Public: anyone, signed in or not, may report a leaked secret; the reply is the same whatever it was.
  'POST /api/Token/Leaked': {
    payload: () => ({ secrets: [`dlp_${'0'.repeat(46)}`] }),
    expected: anyone(202),
  },
};
