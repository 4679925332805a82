import { z } from 'zod';

// product §16: lists that page take page and pageSize and answer { items, totalCount, page, pageSize }.

export const MAX_PAGE_SIZE = 200;

export const pageQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(20),
});
export type PageQuery = z.infer<typeof pageQuery>;

export function pageOf<T extends z.ZodType>(item: T) {
  return z.object({
    items: z.array(item),
    totalCount: z.number().int(),
    page: z.number().int(),
    pageSize: z.number().int(),
  });
}

// List endpoints sort by one allow-listed column (product §16 lists), ascending unless said.
export const sortDirections = ['asc', 'desc'] as const;
export type SortDirection = (typeof sortDirections)[number];

export function sortQuery<const C extends readonly [string, ...string[]]>(columns: C, defaultColumn: C[number]) {
  return z.object({
    sortBy: z.enum(columns).default(defaultColumn),
    sortDirection: z.enum(sortDirections).default('asc'),
  });
}
