import type { Persona } from './matrix-fixture.ts';
import type { Row } from './matrix-row.ts';

// The authorization matrix's rows for usage reporting (spread into access/matrix-table.ts). A summary scoped to one
// collection or one data asset is for Editors and Owners of that collection and administrators; others who see the
// collection get 403, those who do not 404. (The all-scope rule, administrators only, is in reporting.test.ts.)

const editorsAndAdmins: Record<Persona, number> = {
  signedOut: 401,
  plain: 404,
  reader: 403,
  editor: 200,
  owner: 200,
  nestedOwner: 200,
  admin: 200,
  partner: 404,
};

const period = { from: '2026-03-01T00:00:00Z', to: '2026-03-08T00:00:00Z', granularity: 'day' };

export const reportingMatrixRows: Record<string, Row> = {
  'GET /api/Reporting/GetDataSourceMetricsSummaries': {
    query: (fx) => ({ ...period, collectionUid: fx.collection }),
    expected: editorsAndAdmins,
  },
  'GET /api/Reporting/GetUserMetricsSummaries': {
    query: (fx) => ({ ...period, dataAssetUid: fx.assetUid }),
    expected: editorsAndAdmins,
  },
};
