// How an export that stopped at its row limit says so inside the file, so that whoever reads the file alone cannot
// take it for the whole result. Each format ends with one marked line (CSV, NDJSON), a note row (XLSX) or footer
// metadata (Parquet); the JSON reply says `truncated: true` among its own members. Nothing is added when the whole
// result fitted.

/**
 * The note CSV's last record and XLSX's last row start with. It starts with '#', so readers that skip comment lines
 * (pandas `comment='#'`, R `comment.char`, Go's csv `Comment`) skip it, and holds no comma, quote or line break, so
 * it is one CSV field as it is.
 */
export function truncationNote(limit: number): string {
  return `# Truncated: the result has more rows than the export limit of ${limit}; this file holds the first ${limit}`;
}

/** CSV's last record: the note, then empty fields up to the header's count, so strict readers see a full record. */
export function csvTruncationLine(fields: number, limit: number): string {
  return `${truncationNote(limit)}${','.repeat(Math.max(0, fields - 1))}\r\n`;
}

/** NDJSON's last line: an object no row of the export has the shape of. */
export function ndjsonTruncationLine(rows: number, limit: number): string {
  return `${JSON.stringify({ _truncated: true, rows, limit })}\n`;
}

/** Parquet's footer key-value metadata of a cut-off file. */
export function parquetTruncationMetadata(rows: number, limit: number): { key: string; value: string }[] {
  return [
    { key: 'datalab.truncated', value: 'true' },
    { key: 'datalab.rows', value: String(rows) },
    { key: 'datalab.limit', value: String(limit) },
  ];
}
