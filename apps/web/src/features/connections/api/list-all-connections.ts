import type { SqlConnection } from '@datalab/contract/api/sql-connections';
import type { WebApiConnection } from '@datalab/contract/api/web-api';
import { useConnections } from './list-connections.ts';
import { useWebApiConnections } from './list-web-api-connections.ts';

export type AllConnections =
  | { isPending: true; error: null; sql: []; webApi: [] }
  | { isPending: false; error: Error; sql: []; webApi: [] }
  | { isPending: false; error: null; sql: SqlConnection[]; webApi: WebApiConnection[] };

/** A collection's connections of both kinds (SQL and Web API), loaded together: loading, failed, or both lists. */
export function useAllConnections(collectionUid: string): AllConnections {
  const sql = useConnections(collectionUid);
  const webApi = useWebApiConnections(collectionUid);
  if (sql.isError) return { isPending: false, error: sql.error, sql: [], webApi: [] };
  if (webApi.isError) return { isPending: false, error: webApi.error, sql: [], webApi: [] };
  if (sql.isPending || webApi.isPending) return { isPending: true, error: null, sql: [], webApi: [] };
  return { isPending: false, error: null, sql: sql.data, webApi: webApi.data };
}
