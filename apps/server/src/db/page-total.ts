import { sql } from 'kysely';

// Paged lists read their total with the page (a window count beside each row), saving a round trip;
// only a page past the end has no rows to carry it, and is counted apart.

/** Select this beside a page's columns. */
export const windowTotal = () => sql<number>`count(*) over ()`.as('total_count');

/** The page's rows without the window count, and the total: from the rows, or from `countAll` when none came. */
export async function pageWithTotal<R extends { total_count: unknown }>(
  rows: R[],
  countAll: () => Promise<number | string | bigint>,
): Promise<{ rows: Omit<R, 'total_count'>[]; total: number }> {
  const total = rows.length > 0 ? Number(rows[0]?.total_count) : Number(await countAll());
  return { rows: rows.map(({ total_count: _total, ...row }) => row), total };
}
