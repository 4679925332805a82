import type { Database } from '../../db/database.ts';
import type { Persona } from './matrix-fixture.ts';
import type { Row } from './matrix-table.ts';

// The authorization matrix's rows for reading the application log (spread into access/matrix-table.ts): only
// holders of canManageUsers, whatever their roles on collections.

const adminOnly: Record<Persona, number> = {
  signedOut: 401,
  plain: 403,
  reader: 403,
  editor: 403,
  owner: 403,
  nestedOwner: 403,
  admin: 200,
  partner: 403,
};

/** One record for the detail row to read. */
export async function buildLogWorld(db: Database): Promise<{ recordId: number }> {
  const row = await db
    .insertInto('application_logs')
    .values({
      created_at: new Date().toISOString(),
      level: 'error',
      category: 'request',
      message: 'matrix record',
      request_id: 'matrix-request-0001',
      user_id: null,
      details: JSON.stringify({ method: 'GET', url: '/api/x' }),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { recordId: row.id };
}

export const logMatrixRows: Record<string, Row> = {
  'GET /api/ApplicationLog/GetApplicationLogs': {
    query: () => ({ level: 'warn', search: 'matrix', requestId: 'matrix-request-0001' }),
    expected: adminOnly,
  },
  'GET /api/ApplicationLog/:id': { params: (fx) => ({ id: fx.logRecord }), expected: adminOnly },
};
