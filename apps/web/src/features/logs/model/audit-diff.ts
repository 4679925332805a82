// An audit record's values before and after, as rows a person reads: each field (nested ones as a.b.c) with
// what it was, what it became and whether it changed. Arrays are compared whole.

export type DiffChange = 'added' | 'removed' | 'changed' | 'unchanged';

export interface DiffRow {
  field: string;
  before: string | undefined;
  after: string | undefined;
  change: DiffChange;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function flatten(value: unknown, prefix: string, into: Map<string, string>) {
  if (isPlainObject(value) && Object.keys(value).length > 0) {
    for (const [key, inner] of Object.entries(value)) flatten(inner, prefix ? `${prefix}.${key}` : key, into);
    return;
  }
  if (value === undefined) return;
  into.set(prefix || 'value', typeof value === 'string' ? value : JSON.stringify(value));
}

export function auditDiff(before: unknown, after: unknown): DiffRow[] {
  const was = new Map<string, string>();
  const is = new Map<string, string>();
  if (before !== null) flatten(before, '', was);
  if (after !== null) flatten(after, '', is);
  const fields = [...new Set([...was.keys(), ...is.keys()])];
  return fields.map((field) => {
    const a = was.get(field);
    const b = is.get(field);
    const change: DiffChange =
      a === undefined ? 'added' : b === undefined ? 'removed' : a === b ? 'unchanged' : 'changed';
    return { field, before: a, after: b, change };
  });
}
