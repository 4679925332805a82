import { z } from 'zod';
import { reviveDates } from '@datalab/contract/dates';

// SPEC §3: ISO date-time strings arrive as dates. The contract's schemas decide, though: where a
// schema asks for a string (the access model's createdAt, lastSeenAt, …) the revived Date is put
// back to the exact text that arrived, so a reply is never refused for a date the client made up.

type PathKey = PropertyKey;

function valueAt(root: unknown, path: readonly PathKey[]): unknown {
  let node = root;
  for (const key of path) {
    if (typeof node !== 'object' || node === null) return undefined;
    node = Reflect.get(node, key);
  }
  return node;
}

function restoreAt(revived: unknown, plain: unknown, path: readonly PathKey[]): boolean {
  const parentPath = path.slice(0, -1);
  const key = path.at(-1);
  const parent = valueAt(revived, parentPath);
  if (key === undefined || typeof parent !== 'object' || parent === null) return false;
  if (!(Reflect.get(parent, key) instanceof Date)) return false;
  return Reflect.set(parent, key, valueAt(plain, path));
}

export type ParsedReply<S extends z.ZodType> =
  | { success: true; data: z.output<S> }
  | { success: false; error: unknown };

/** Parses a reply's text (JSON, '' for none) with the call's response schema. */
export function parseReply<S extends z.ZodType>(schema: S, text: string): ParsedReply<S> {
  let revived: unknown;
  let plain: unknown;
  try {
    revived = text === '' ? undefined : JSON.parse(text, reviveDates);
    plain = text === '' ? undefined : JSON.parse(text);
  } catch (error) {
    return { success: false, error };
  }
  const first = z.safeParse(schema, revived);
  if (first.success) return { success: true, data: first.data };
  const restored = first.error.issues.filter((issue) => restoreAt(revived, plain, issue.path)).length;
  if (restored === 0) return { success: false, error: first.error };
  const second = z.safeParse(schema, revived);
  return second.success ? { success: true, data: second.data } : { success: false, error: second.error };
}
