import {
  detectParameters,
  detectTemplateParameters,
  isEngineError,
  parameterDefinitionsSchema,
  ruleSchema,
  type ParameterDefinition,
} from '@datalab/engine';
import type { ErrorsMap } from '@datalab/contract/errors';
import { messages } from '@datalab/contract/messages';
import type { Database } from '../../db/database.ts';
import { validation } from '../../lib/errors.ts';
import { errorsFromIssues } from '../../lib/validation-messages.ts';
import { findConnectionRow, findDataSource, findParameterRows } from './repository.ts';
import type { z } from 'zod';

// Parameters and rules are checked with the engine's own schemas before they are stored, so what runs later is
// what was accepted here. A parameter data source must be another asset of the same collection.

type Rule = ReturnType<typeof ruleSchema.parse>;

/** product §5 wording for zod's own issues; the engine's messages (already templated) are kept as they are. */
function engineErrors(issues: z.core.$ZodIssue[], prefix: string): ErrorsMap {
  const errors: ErrorsMap = {};
  for (const issue of issues) {
    const own = /^Unsupported type |already exists$|is required$/.test(issue.message);
    const entry = own
      ? { [[prefix, ...issue.path.map(String)].join('.')]: [issue.message] }
      : errorsFromIssues([issue], prefix);
    for (const [key, list] of Object.entries(entry)) (errors[key] ??= []).push(...list);
  }
  return errors;
}

/** The definitions, parsed; a 400 with the errors map (keys like parameters.0.name) when any is wrong. */
export async function checkParameters(
  db: Database,
  raw: readonly unknown[],
  owner: { collectionId: number; dataSourceId?: number },
  prefix = 'parameters',
): Promise<ParameterDefinition[]> {
  const parsed = parameterDefinitionsSchema.safeParse(raw);
  if (!parsed.success) throw validation(engineErrors(parsed.error.issues, prefix));
  const errors: ErrorsMap = {};
  for (const [index, def] of parsed.data.entries()) {
    const allowed = def.allowedValues;
    if (allowed?.kind !== 'dataSource') continue;
    const source = await findDataSource(db, allowed.dataSourceId);
    const key = `${prefix}.${index}.allowedValues.dataSourceId`;
    if (!source || source.collection_id !== owner.collectionId) {
      errors[key] = [messages.doesNotExist('Data asset', allowed.dataSourceId)];
    } else if (source.id === owner.dataSourceId) {
      errors[key] = [messages.invalidOption];
    }
  }
  if (Object.keys(errors).length > 0) throw validation(errors);
  return parsed.data;
}

export function checkRules(raw: readonly unknown[], prefix: string): Rule[] {
  const errors: ErrorsMap = {};
  const rules = raw.map((rule, index) => {
    const parsed = ruleSchema.safeParse(rule);
    if (!parsed.success) Object.assign(errors, engineErrors(parsed.error.issues, `${prefix}.${index}`));
    return parsed.data as Rule;
  });
  if (Object.keys(errors).length > 0) throw validation(errors);
  return rules;
}

export function checkTransformations<T extends { rules: readonly unknown[] }>(
  list: readonly T[],
  prefix = 'transformations',
) {
  return list.map((t, index) => ({ ...t, rules: checkRules(t.rules, `${prefix}.${index}.rules`) }));
}

/** The message for a `:name` of the SQL that no parameter defines (product §5's '{X} is required'). */
export const placeholderUndefined = (name: string) => messages.required(`A definition for :${name}, used in the SQL,`);

/** The message for a `{name}` of a Web API request that no parameter defines. */
export const templatePlaceholderUndefined = (name: string) =>
  messages.required(`A definition for {${name}}, used in the request,`);

/** The `{param}` names a stored Web API request uses (path, query, headers, body), as the engine detects them. */
function requestPlaceholders(definition: string | null): string[] {
  try {
    return detectTemplateParameters(JSON.parse(definition ?? '{}') as Parameters<typeof detectTemplateParameters>[0]);
  } catch {
    return [];
  }
}

/**
 * The asset as it stands in `db` (inside the changing transaction, after the change) must define every `:name` its
 * SQL uses (every `{name}` its request uses, for a Web API asset: field 'request' instead of 'sql'), found by the engine's own scanner with the connection's dialect, so what is detected here is what the
 * run binds (quotes, comments and `::casts` are not placeholders). Definitions the SQL does not use are fine.
 * A 400 with the missing names under `field` ('sql' when the SQL was saved, 'parameters' for the parameter calls).
 */
export async function assertPlaceholdersDefined(db: Database, dataSourceId: number, field: 'sql' | 'parameters') {
  const source = await findDataSource(db, dataSourceId);
  if (source?.kind === 'webapi') {
    const defined = new Set((await findParameterRows(db, dataSourceId)).map((row) => row.name));
    const missing = requestPlaceholders(source.request_definition).filter((name) => !defined.has(name));
    if (missing.length > 0)
      throw validation({ [field === 'sql' ? 'request' : field]: missing.map(templatePlaceholderUndefined) });
    return;
  }
  if (!source || source.kind !== 'sql' || source.connection_id === null) return;
  const [connection, parameters] = await Promise.all([
    findConnectionRow(db, source.connection_id),
    findParameterRows(db, dataSourceId),
  ]);
  let used: string[];
  try {
    used = detectParameters(source.sql_text, connection?.driver ?? 'postgres');
  } catch (error) {
    // Unterminated quotes or comments, a second statement: the run would refuse the SQL the same way.
    if (isEngineError(error)) throw validation({ sql: [error.message] });
    throw error;
  }
  const defined = new Set(parameters.map((row) => row.name));
  const missing = used.filter((name) => !defined.has(name));
  if (missing.length > 0) throw validation({ [field]: missing.map(placeholderUndefined) });
}
