import { administrators } from './matrix-expected.ts';
import type { Row } from './matrix-row.ts';

// The authorization matrix's rows for reading the application log (spread into access/matrix-table.ts): only
// holders of canManageUsers, whatever their roles on collections.

export const logMatrixRows: Record<string, Row> = {
  'GET /api/ApplicationLog/GetApplicationLogs': {
    query: () => ({ level: 'warn', search: 'matrix', requestId: 'matrix-request-0001' }),
    expected: administrators(200),
  },
  'GET /api/ApplicationLog/:id': { params: (fx) => ({ id: fx.logRecord }), expected: administrators(200) },
};
