import type { Persona } from './matrix-fixture.ts';
import type { Row } from './matrix-row.ts';

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

export const logMatrixRows: Record<string, Row> = {
  'GET /api/ApplicationLog/GetApplicationLogs': {
    query: () => ({ level: 'warn', search: 'matrix', requestId: 'matrix-request-0001' }),
    expected: adminOnly,
  },
  'GET /api/ApplicationLog/:id': { params: (fx) => ({ id: fx.logRecord }), expected: adminOnly },
};
