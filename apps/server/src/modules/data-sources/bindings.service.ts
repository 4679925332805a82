import type { ParameterBinding } from '@datalab/contract/api/data-sources';
import { detectParameters, detectTemplateParameters, validateParameters, type HttpRequestInput } from '@datalab/engine';
import type { Database } from '../../db/database.ts';
import { validation } from '../../lib/errors.ts';
import { requireAsset } from './assets.service.ts';
import { loadParts } from './definition.service.ts';
import { findConnectionRow } from './repository.ts';

// The values a call would bind (POST /api/DataSource/{id}/BoundValues, docs/decisions.md), for the developer-mode
// call screen's "bound values" table. It runs the engine's own checks (validateParameters, as the calling layer
// does) on the same stored definitions and runs nothing: the portal cannot import the engine (it carries the
// database drivers), and typing the values a second time in the browser would be a second copy of the rule that
// drifts. A header on the call's reply would carry them too, but a list value can be large; this reply is as large
// as the body the caller sent. Options from a parameter data source are not checked here (that would run their
// queries); the call itself checks them.

export async function boundValues(
  db: Database,
  idOrUid: string,
  raw: Record<string, unknown>,
): Promise<{ bindings: ParameterBinding[] }> {
  const source = await requireAsset(db, idOrUid);
  const [parts, connection] = await Promise.all([
    loadParts(db, source.id),
    source.connection_id === null ? undefined : findConnectionRow(db, source.connection_id),
  ]);
  const typed = validateParameters(parts.parameters, raw);
  if (!typed.ok) throw validation(typed.errors);
  // A Web API asset binds into its request's {param} placeholders rather than SQL.
  const used = new Set(
    source.kind === 'webapi'
      ? detectTemplateParameters(JSON.parse(source.request_definition ?? '{}') as HttpRequestInput)
      : detectParameters(source.sql_text, connection?.driver ?? 'postgres'),
  );
  return {
    bindings: parts.parameters.map((parameter) => ({
      name: parameter.name,
      type: parameter.type,
      list: parameter.list ?? false,
      value: typed.values[parameter.name] ?? null,
      inSql: used.has(parameter.name),
    })),
  };
}
