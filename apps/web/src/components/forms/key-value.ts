// Name/value pairs as a form edits them (headers, query parameters): rows in order, each with a key of its own so
// React keeps a row's inputs with it when another is removed. Rows with an empty name are left out when sent.

export interface KeyValueRow {
  key: string;
  name: string;
  value: string;
}

let nextKey = 0;

export function newRow(name = '', value = ''): KeyValueRow {
  nextKey += 1;
  return { key: `kv${nextKey}`, name, value };
}

export function rowsOf(record: Readonly<Record<string, string>> | undefined): KeyValueRow[] {
  return Object.entries(record ?? {}).map(([name, value]) => newRow(name, value));
}

/** The rows as a record; a later row with the same name wins, as it would on the wire. */
export function recordOf(rows: readonly KeyValueRow[]): Record<string, string> {
  const record: Record<string, string> = {};
  for (const row of rows) {
    const name = row.name.trim();
    if (name !== '') record[name] = row.value;
  }
  return record;
}

/** The names given more than once (case-insensitively, as HTTP header names compare). */
export function repeatedNames(rows: readonly KeyValueRow[], ignoreCase: boolean): string[] {
  const seen = new Set<string>();
  const repeated = new Set<string>();
  for (const row of rows) {
    const name = ignoreCase ? row.name.trim().toLowerCase() : row.name.trim();
    if (name === '') continue;
    if (seen.has(name)) repeated.add(row.name.trim());
    seen.add(name);
  }
  return [...repeated];
}
