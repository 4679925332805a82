import type { Database } from '../../db/database.ts';

// The authorization matrix's application-log record (log-matrix-rows.ts has its rows).

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
