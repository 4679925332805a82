import type { Expected, Row } from './matrix-row.ts';

// What the matrix's rows expect. On the target collection and its connections, assets and credentials
// (matrix-table.ts, sql-matrix-rows.ts, web-api-matrix-rows.ts): hidden → 404 (plain, partner), visible but not
// allowed → 403; an administrator without a role reads but changes nothing. On what is the administrators' alone
// (matrix-table.ts, caching-matrix-rows.ts, log-matrix-rows.ts): everyone else signed in → 403.

/** Everyone who sees the target collection gets `ok`. */
export const seeing = (ok: number): Expected => ({
  signedOut: 401,
  plain: 404,
  reader: ok,
  editor: ok,
  owner: ok,
  nestedOwner: ok,
  admin: ok,
  partner: 404,
});
export const readers = seeing(200);
export const editors = (ok: number): Expected => ({ ...seeing(ok), reader: 403, admin: 403 });
export const owners = (ok: number): Expected => ({ ...editors(ok), editor: 403 });

/** Holders of canManageUsers get `ok`, whatever their roles on collections. */
export const administrators = (ok: number): Expected => ({
  signedOut: 401,
  plain: 403,
  reader: 403,
  editor: 403,
  owner: 403,
  nestedOwner: 403,
  admin: ok,
  partner: 403,
});

/** An undo that deletes the row a successful create answered with (its `id`) from `table`. */
export const deleteCreated =
  (table: 'connections' | 'data_sources' | 'web_api_credentials'): NonNullable<Row['undo']> =>
  async (body, app) => {
    const { id } = JSON.parse(body) as { id?: number };
    if (id !== undefined) await app.db.deleteFrom(table).where('id', '=', id).execute();
  };
