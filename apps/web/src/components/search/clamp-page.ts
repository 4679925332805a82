/** A usable page count: a whole number, at least 1. */
export function pageCount(totalPages: number): number {
  return Number.isFinite(totalPages) ? Math.max(1, Math.floor(totalPages)) : 1;
}

/** product §5: the page number is clamped between 1 and the total. */
export function clampPage(page: number, totalPages: number): number {
  const last = pageCount(totalPages);
  if (Number.isNaN(page)) return 1;
  return Math.min(Math.max(1, Math.floor(page)), last);
}
