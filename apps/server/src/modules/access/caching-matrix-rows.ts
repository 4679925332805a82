import { administrators } from './matrix-expected.ts';
import type { Row } from './matrix-row.ts';

// The authorization matrix's rows for cache management (spread into access/matrix-table.ts): administrators only.
// A key the cache does not hold answers 404 once the caller is allowed, so the value and removal cells of an
// administrator are 404 and everyone else's 403: the permission is checked before the cache is looked at.

const MISSING_KEY = 'results:0:0:matrix';

export const cachingMatrixRows: Record<string, Row> = {
  'GET /api/Caching/GetCacheKeys': { query: () => ({ type: 'results' }), expected: administrators(200) },
  'GET /api/Caching/GetCacheValueByType': {
    query: () => ({ key: MISSING_KEY, type: 'results' }),
    expected: administrators(404),
  },
  'POST /api/Caching/RemoveFromCache': { query: () => ({ key: MISSING_KEY }), expected: administrators(404) },
  'POST /api/Caching/PurgeCache': { payload: () => ({ type: 'metadata' }), expected: administrators(200) },
};
