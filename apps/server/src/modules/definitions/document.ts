import { DEFINITION_MAX_BYTES } from '@datalab/contract/api/definitions';
import { definitionDocument, type DefinitionDocument } from '@datalab/contract/api/definition-document';
import type { ErrorsMap } from '@datalab/contract/errors';
import { parseDocument } from 'yaml';
import type { z } from 'zod';
import { AppError, validation } from '../../lib/errors.ts';
import { errorsFromIssues } from '../../lib/validation-messages.ts';

// Reading a definition document: YAML or JSON text (JSON is YAML) or an object, at most DEFINITION_MAX_BYTES,
// parsed safely (the core schema, no custom tags, duplicate keys refused, aliases capped so a "billion laughs"
// document cannot expand), then checked by the document's schema. A field the format does not know is refused with
// its path, at any depth: the schema's own objects are strict, and the parts it borrows (rules, requests) are
// compared with what the schema kept.

/** Aliases one document may use; a definition has no need of them, a hostile one would multiply through them. */
export const MAX_ALIASES = 50;
export const UNKNOWN_FIELD = 'Unknown field';

export const tooLarge = () =>
  new AppError({
    status: 400,
    code: 'validation',
    title: `The definition document is larger than ${DEFINITION_MAX_BYTES} bytes`,
    errors: { document: [`At most ${DEFINITION_MAX_BYTES} bytes`] },
  });

function parseText(text: string): unknown {
  if (Buffer.byteLength(text, 'utf8') > DEFINITION_MAX_BYTES) throw tooLarge();
  // JSON text (it is YAML too) is read as JSON: many times faster, and it has no tags or aliases to guard against.
  if (text.trimStart().startsWith('{')) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      // not JSON after all (a YAML flow mapping): read as YAML below
    }
  }
  const parsed = parseDocument(text, { schema: 'core', uniqueKeys: true, prettyErrors: false, merge: false });
  const problems = [...parsed.errors, ...parsed.warnings];
  if (problems.length > 0) {
    throw validation({ document: problems.slice(0, 5).map((p) => p.message.split('\n')[0] ?? p.message) });
  }
  try {
    return parsed.toJS({ maxAliasCount: MAX_ALIASES });
  } catch (error) {
    throw validation({ document: [error instanceof Error ? error.message : 'Unreadable document'] });
  }
}

/** Keys of `input` objects that the parsed `output` dropped: fields nobody reads, refused rather than ignored. */
function droppedKeys(input: unknown, output: unknown, path: string, found: string[]) {
  if (found.length >= 20) return;
  if (Array.isArray(input) && Array.isArray(output)) {
    input.forEach((item, index) => droppedKeys(item, output[index], path ? `${path}.${index}` : String(index), found));
    return;
  }
  if (!input || typeof input !== 'object' || !output || typeof output !== 'object' || Array.isArray(output)) return;
  const kept = output as Record<string, unknown>;
  for (const [key, value] of Object.entries(input as Record<string, unknown>)) {
    const at = path ? `${path}.${key}` : key;
    if (!(key in kept)) found.push(at);
    else droppedKeys(value, kept[key], at, found);
  }
}

function schemaErrors(issues: readonly z.core.$ZodIssue[]): ErrorsMap {
  const errors: ErrorsMap = {};
  const rest: z.core.$ZodIssue[] = [];
  for (const issue of issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) (errors[[...issue.path.map(String), key].join('.')] ??= []).push(UNKNOWN_FIELD);
    } else rest.push(issue);
  }
  for (const [key, list] of Object.entries(errorsFromIssues(rest))) (errors[key] ??= []).push(...list);
  return errors;
}

/** The document as the schema reads it; a 400 naming each wrong field's path otherwise. */
export function readDocument(document: string | Record<string, unknown>): DefinitionDocument {
  let raw: unknown;
  if (typeof document === 'string') raw = parseText(document);
  else {
    if (Buffer.byteLength(JSON.stringify(document), 'utf8') > DEFINITION_MAX_BYTES) throw tooLarge();
    raw = document;
  }
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) {
    throw validation({ document: ['A definition document is a mapping (apiVersion, kind, collection, ...)'] });
  }
  const parsed = definitionDocument.safeParse(raw);
  if (!parsed.success) throw validation(schemaErrors(parsed.error.issues));
  const dropped: string[] = [];
  droppedKeys(raw, parsed.data, '', dropped);
  if (dropped.length > 0) throw validation(Object.fromEntries(dropped.map((path) => [path, [UNKNOWN_FIELD]])));
  return parsed.data;
}

/** Runs a check written for one thing's own form, moving its errors under `prefix` (e.g. `dataAssets.3`). */
export async function under<T>(prefix: string, check: () => T | Promise<T>): Promise<T> {
  try {
    return await check();
  } catch (error) {
    if (error instanceof AppError && error.status === 400 && error.errors) {
      const errors = Object.fromEntries(
        Object.entries(error.errors).map(([key, list]) => [key ? `${prefix}.${key}` : prefix, list]),
      );
      throw validation(errors);
    }
    throw error;
  }
}
